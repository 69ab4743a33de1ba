/// \file
/// The exec: transport against well-behaved and hostile test adapters
/// (tests/adapters/hostile/): each failure gets its verdict (crash / timeout /
/// protocol-error), the next call works after a restart, memory stays bounded, and no
/// child process outlives its adapter.
#include "adapters/exec_adapter.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <regex>
#include <thread>

#include "adapters/adapter.h"
#include "adapters/session.h"
#include "tests/adapters/adapter_test_support_internal.h"

namespace ictk {
namespace {

using nlohmann::json;
using testing_support::ChildProcesses;
using testing_support::HostileSpec;
using testing_support::StillRunning;

AdapterOptions FastOptions() {
  AdapterOptions o;
  // Short enough to keep the suite fast, long enough for a loaded CI machine.
  o.timeout_ms = 1500;
  o.startup_grace_ms = 3000;  // the Python start-up is not what these tests time
  o.max_line_bytes = 1u << 20;
  o.stderr_tail_bytes = 4u << 10;
  return o;
}

std::unique_ptr<Adapter> Make(const std::string& spec,
                              AdapterOptions options = FastOptions()) {
  auto a = MakeAdapter(spec, options, {});
  EXPECT_TRUE(a.has_value()) << (a ? "" : a.error().message);
  return a ? std::move(*a) : nullptr;
}

json Hello(int id) { return {{"id", id}, {"op", "hello"}, {"protocol-version", 1}}; }
json LoadTable(int id) { return {{"id", id}, {"op", "load-table"}, {"table", "t"}}; }

/// The failure verdict of a call that must fail.
std::string Verdict(const Result<json>& r) {
  if (r) return "ok";
  auto f = TransportFailureOf(r.error());
  return f ? std::string(ToString(*f)) : "not a transport failure: " + r.error().message;
}

class ExecAdapterTest : public ::testing::Test {
 protected:
  void TearDown() override {
    // No zombie and no live child may outlive an adapter.
    EXPECT_TRUE(ChildProcesses().empty());
  }
};

TEST(SplitShellWords, QuotesAndBackslashes) {
  auto w = SplitShellWords(R"(  ./run  'a b' "c \"d\" \$e" f\ g 'it'\''s' "" x)");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(*w, (std::vector<std::string>{"./run", "a b", "c \"d\" $e", "f g", "it's", "",
                                          "x"}));
  // No expansion of any kind.
  auto v = SplitShellWords("echo $HOME ~ *");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(*v, (std::vector<std::string>{"echo", "$HOME", "~", "*"}));
  // Inside double quotes a backslash before another character stays.
  auto d = SplitShellWords(R"("a\nb")");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(*d, (std::vector<std::string>{"a\\nb"}));
}

TEST(SplitShellWords, UnterminatedQuoteIsAUsageError) {
  for (const char* bad : {"run 'x", "run \"x", "run x\\"}) {
    auto w = SplitShellWords(bad);
    ASSERT_FALSE(w.has_value()) << bad;
    EXPECT_EQ(w.error().kind, ErrorKind::kUsage);
  }
}

TEST_F(ExecAdapterTest, EchoAdapterAnswersEveryRequest) {
  std::string spec = HostileSpec("echo");
  auto a = Make(spec);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->Describe(), spec);
  auto hello = a->Call(Hello(1));
  ASSERT_TRUE(hello.has_value()) << hello.error().message;
  EXPECT_EQ((*hello)["id"], 1);
  EXPECT_EQ((*hello)["protocol-version"], 1);
  for (int id = 2; id < 20; ++id) {
    json request = LoadTable(id);
    request["text"] = "line\nbreak \"quoted\" \xc3\xa9";
    auto r = a->Call(request);
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_EQ((*r)["id"], id);
    EXPECT_EQ((*r)["echo"], request);
  }
  a.reset();
}

TEST_F(ExecAdapterTest, LargeRequestsAndResponsesPassThrough) {
  // Far more than a pipe buffer each way: writing and reading must interleave.
  auto a = Make(HostileSpec("echo"));
  json request = LoadTable(1);
  request["pad"] = std::string(3u << 18, 'p');  // 768 KiB
  auto r = a->Call(request);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ((*r)["echo"]["pad"].get<std::string>().size(), 3u << 18);
}

TEST_F(ExecAdapterTest, CrashAtHelloIsACrashAndRestarts) {
  auto a = Make(HostileSpec("crash_at_hello"));
  auto r = a->Call(Hello(1));
  EXPECT_EQ(Verdict(r), "crash");
  EXPECT_NE(r.error().message.find("status 3"), std::string::npos) << r.error().message;
  EXPECT_TRUE(ChildProcesses().empty());  // reaped at once, not at destruction
  // The next call starts a fresh process (which crashes again).
  EXPECT_EQ(Verdict(a->Call(Hello(2))), "crash");
}

TEST_F(ExecAdapterTest, CrashMidHistoryThenTheNextCallWorks) {
  auto a = Make(HostileSpec("crash_mid_history"));
  ASSERT_TRUE(a->Call(Hello(1)).has_value());
  ASSERT_TRUE(a->Call(LoadTable(2)).has_value());
  auto r = a->Call(LoadTable(3));
  EXPECT_EQ(Verdict(r), "crash");
  EXPECT_NE(r.error().message.find("signal 11"), std::string::npos) << r.error().message;
  auto again = a->Call(Hello(4));
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ((*again)["id"], 4);
}

// Protocol section 4: "The handshake, sent first after every (re)start". An adapter that
// answers nothing before its hello works again after a crash: the session sends the
// hello (with an id of its own) to the restarted process before the next request.
TEST_F(ExecAdapterTest, ARestartedProcessGetsTheHelloFirst) {
  AdapterSession session(Make(HostileSpec("needs_hello")));
  ASSERT_TRUE(session.Handshake().has_value());
  CallResult before = session.Call({{"op", "load-table"}, {"table", "t"}});
  ASSERT_FALSE(before.failure.has_value()) << before.failure->message;
  EXPECT_EQ((*before.response)["result"], "ok");
  CallResult crashed = session.Call({{"op", "crash"}, {"table", "t"}});
  ASSERT_TRUE(crashed.failure.has_value());
  EXPECT_EQ(crashed.failure->kind, TransportFailure::kCrash);
  const int64_t calls = session.calls();
  CallResult after = session.Call({{"op", "load-table"}, {"table", "t"}});
  ASSERT_FALSE(after.failure.has_value()) << after.failure->message;
  EXPECT_EQ((*after.response)["result"], "ok") << *after.response;
  EXPECT_EQ(session.calls(), calls + 2);  // the hello, then the request
  EXPECT_EQ((*after.response)["id"], calls + 2);
  // No restart, no hello.
  ASSERT_FALSE(session.Call({{"op", "load-table"}, {"table", "t"}}).failure.has_value());
  EXPECT_EQ(session.calls(), calls + 3);
}

// Every process gets its hello: an adapter killed at the third request of each process
// (its hello, one request, then the crash) keeps answering after each restart.
TEST_F(ExecAdapterTest, EveryRestartedProcessGetsItsHello) {
  AdapterSession session(Make(HostileSpec("crash_mid_history")));
  ASSERT_TRUE(session.Handshake().has_value());
  for (int process = 0; process < 3; ++process) {
    SCOPED_TRACE(process);
    CallResult one = session.Call({{"op", "load-table"}, {"table", "t"}});
    ASSERT_FALSE(one.failure.has_value()) << one.failure->message;
    CallResult two = session.Call({{"op", "load-table"}, {"table", "t"}});
    ASSERT_TRUE(two.failure.has_value());
    EXPECT_EQ(two.failure->kind, TransportFailure::kCrash);
  }
}

// A restarted process that does not answer its hello ok: the request fails, named as
// the hello's failure, and is not sent.
TEST_F(ExecAdapterTest, AFailedHelloToARestartedProcessFailsTheRequest) {
  char marker[] = "/tmp/ictk_needs_hello_XXXXXX";
  const int fd = ::mkstemp(marker);
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::remove(marker);  // the first process creates it; a restarted one finds it
  AdapterSession session(Make(HostileSpec("needs_hello", marker)));
  ASSERT_TRUE(session.Handshake().has_value());
  ASSERT_TRUE(session.Call({{"op", "crash"}, {"table", "t"}}).failure.has_value());
  CallResult refused = session.Call({{"op", "load-table"}, {"table", "t"}});
  std::remove(marker);
  ASSERT_TRUE(refused.failure.has_value());
  EXPECT_EQ(refused.failure->kind, TransportFailure::kProtocolError);
  EXPECT_NE(refused.failure->message.find("hello to the adapter's restarted process"),
            std::string::npos)
      << refused.failure->message;
  EXPECT_NE(refused.failure->message.find("rejected"), std::string::npos)
      << refused.failure->message;
}

TEST_F(ExecAdapterTest, HangIsATimeoutAndKillsTheProcessGroup) {
  auto a = Make(HostileSpec("hang"));
  ASSERT_TRUE(a->Call(Hello(1)).has_value());
  auto start = std::chrono::steady_clock::now();
  auto r = a->Call(LoadTable(2));
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(Verdict(r), "timeout");
  EXPECT_LT(took, std::chrono::milliseconds(6000));
  EXPECT_GE(took, std::chrono::milliseconds(1400));
  // The grandchild the adapter started is gone too.
  std::smatch m;
  std::string tail = a->StderrTail();
  ASSERT_TRUE(std::regex_search(tail, m, std::regex("grandchild (\\d+)"))) << tail;
  EXPECT_FALSE(StillRunning(std::stoi(m[1])));
  ASSERT_TRUE(a->Call(Hello(3)).has_value());
}

TEST_F(ExecAdapterTest, DestructionKillsAHangingAdapterAndItsChildren) {
  auto a = Make(HostileSpec("hang"));
  ASSERT_TRUE(a->Call(Hello(1)).has_value());
  // The stderr drain runs beside the calls: wait for the line to arrive.
  std::smatch m;
  std::string tail;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (!std::regex_search(tail = a->StderrTail(), m, std::regex("grandchild (\\d+)")) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_FALSE(m.empty()) << tail;
  int grandchild = std::stoi(m[1]);
  auto start = std::chrono::steady_clock::now();
  a.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(2000));
  EXPECT_FALSE(StillRunning(grandchild));
}

TEST_F(ExecAdapterTest, GarbageIsAProtocolError) {
  auto a = Make(HostileSpec("garbage"));
  auto r = a->Call(Hello(1));
  EXPECT_EQ(Verdict(r), "protocol-error");
  EXPECT_NE(r.error().message.find("not JSON"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("this is not json"), std::string::npos);
  EXPECT_EQ(Verdict(a->Call(Hello(2))), "protocol-error");
}

TEST_F(ExecAdapterTest, WrongIdIsAProtocolError) {
  auto a = Make(HostileSpec("wrong_id"));
  auto r = a->Call(Hello(7));
  EXPECT_EQ(Verdict(r), "protocol-error");
  EXPECT_NE(r.error().message.find("1007 does not match request id 7"), std::string::npos)
      << r.error().message;
}

TEST_F(ExecAdapterTest, TwoLinesForOneRequestIsAProtocolErrorBeforeTheNext) {
  auto a = Make(HostileSpec("two_lines"));
  auto first = a->Call(Hello(1));
  ASSERT_TRUE(first.has_value()) << first.error().message;
  auto second = a->Call(LoadTable(2));
  EXPECT_EQ(Verdict(second), "protocol-error");
  // Whether the extra line was already there before request 2 or arrived after it was
  // sent, it is named as output after the previous response.
  EXPECT_NE(second.error().message.find("output after the previous response"),
            std::string::npos)
      << second.error().message;
  // Restarted: the first answer of a fresh process is fine again.
  ASSERT_TRUE(a->Call(Hello(3)).has_value());
}

TEST_F(ExecAdapterTest, HugeLineWithoutNewlineIsBoundedAndAProtocolError) {
  auto a = Make(HostileSpec("huge_line"));
  auto start = std::chrono::steady_clock::now();
  auto r = a->Call(Hello(1));
  EXPECT_EQ(Verdict(r), "protocol-error");
  EXPECT_NE(r.error().message.find("longer than 1048576 bytes"), std::string::npos)
      << r.error().message;
  EXPECT_LT(r.error().message.size(), 1000u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(6000));
}

TEST_F(ExecAdapterTest, ExitingSilentlyIsACrash) {
  auto a = Make(HostileSpec("exit_silently"));
  auto r = a->Call(Hello(1));
  EXPECT_EQ(Verdict(r), "crash");
  EXPECT_NE(r.error().message.find("exited with status 0"), std::string::npos)
      << r.error().message;
}

TEST_F(ExecAdapterTest, StderrOnlyIsATimeoutWithABoundedTail) {
  AdapterOptions o = FastOptions();
  auto a = Make(HostileSpec("stderr_only"), o);
  EXPECT_EQ(Verdict(a->Call(Hello(1))), "timeout");
  std::string tail = a->StderrTail();
  EXPECT_LE(tail.size(), o.stderr_tail_bytes);
  EXPECT_NE(tail.find("last words of request 0"), std::string::npos);
}

TEST_F(ExecAdapterTest, StderrFloodDoesNotBlockTheAnswer) {
  auto a = Make(HostileSpec("stderr_only", "--then-answer"));
  for (int id = 1; id <= 3; ++id) {
    auto r = a->Call(LoadTable(id));
    ASSERT_TRUE(r.has_value()) << r.error().message;
  }
  // The drain thread may still be catching up with the last bytes.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (a->StderrTail().find("last words of request 2") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_NE(a->StderrTail().find("last words of request 2"), std::string::npos);
}

TEST_F(ExecAdapterTest, ClosedStdinIsACrashNotASigpipe) {
  auto a = Make(HostileSpec("close_stdin"));
  json request = LoadTable(1);
  request["pad"] = std::string(1u << 20, 'p');  // more than a pipe holds
  auto r = a->Call(request);
  EXPECT_EQ(Verdict(r), "crash");
  EXPECT_NE(r.error().message.find("before reading request 1"), std::string::npos)
      << r.error().message;
}

TEST_F(ExecAdapterTest, MissingCommandCannotStart) {
  auto by_path = MakeAdapter("exec:/nonexistent/ictk-adapter --x", FastOptions(), {});
  ASSERT_FALSE(by_path.has_value());
  EXPECT_EQ(by_path.error().kind, ErrorKind::kAdapter);
  EXPECT_NE(by_path.error().message.find("cannot start"), std::string::npos);
  auto by_name = Make("exec:ictk-no-such-command-anywhere");
  ASSERT_NE(by_name, nullptr);
  auto r = by_name->Call(Hello(1));
  EXPECT_EQ(Verdict(r), "crash");
  EXPECT_NE(r.error().message.find("cannot start"), std::string::npos)
      << r.error().message;
}

TEST(MakeAdapter, BadSpecsAreUsageErrors) {
  for (const char* spec : {"", "exec:", "exec:'unterminated", "lib:", "builtin:nope",
                           "ftp://x", "builtin:reference?mutant=x"}) {
    auto a = MakeAdapter(spec, {}, {});
    ASSERT_FALSE(a.has_value()) << spec;
    EXPECT_EQ(a.error().kind, ErrorKind::kUsage) << spec << ": " << a.error().message;
  }
}

TEST(MakeAdapter, IsolateNeedsTheIctkPath) {
  AdapterOptions o;
  o.isolate = true;
  auto a = MakeAdapter("builtin:reference", o, {});
  ASSERT_FALSE(a.has_value());
  o.ictk_path = "/bin/true";
  auto b = MakeAdapter("builtin:reference", o, {});
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ((*b)->Describe(), "isolated builtin:reference");
}

}  // namespace
}  // namespace ictk
