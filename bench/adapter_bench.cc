// Round trips per second of the same scripted session over each transport, side by side
// with the physical baselines of the same bytes, in one run (issue 15 item 4):
//
//   build/bin/ictk_adapter_bench
//
// The session: hello, create a v4 table, add a primary key, then 50 appends of one row
// each (53 requests); each benchmark iteration is the whole session. The sample
// implementation answers over every transport (builtin:sample, lib: its .so, exec: its
// executable). The sample's answers to the session are recorded once (the exact lines its
// executable writes, sample::Session::CallLine), and the baselines use those bytes:
//
// - BM_ExecReplay: the exec transport (ExecAdapter::Call: serialize, pipes, poll, parse,
//   envelope checks) against ictk_bench_echo_peer, which answers each request line with
//   the next recorded answer line and does nothing else: the transport's whole cost,
//   without the sample's work.
// - BM_BareEcho: the same request lines written and the same answer lines read back
// through
//   the same kind of pipes to the same peer, with plain blocking write/read and nothing
//   else (no JSON at all): the physical floor of the pipes and the bytes.
// - BM_BareParse: nlohmann::json::parse of the same answer lines, in process: the floor
// of
//   turning the bytes into objects.
//
// scripts/bench_ratios.py reports exec (replay) against echo-plus-parse (target <= 1.5x),
// the exec sample against builtin:sample plus echo-plus-parse, and lib: against builtin:
// (target <= 1.5x), all in wall-clock time of one run.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "codec/json_text.h"
#include "sample/sample_adapter.h"
#include "sample/session_internal.h"

extern char** environ;

namespace {

constexpr int kRows = 50;

/// `delta`: the hello offers metadata-delta answers (docs/protocol.md section 7), which
/// the sample then gives.
std::vector<nlohmann::json> Session(int rows, bool delta = false) {
  std::vector<nlohmann::json> s;
  s.push_back({{"op", "hello"}, {"protocol-version", 1}});
  if (delta) s.back()["metadata-delta"] = true;
  s.push_back(nlohmann::json::parse(R"({"op":"create-table","table":"t","now-ms":1000,
    "format-version":4,"schema":{"type":"struct","schema-id":0,"fields":[
    {"id":1,"name":"id","required":true,"type":"long"},
    {"id":2,"name":"v","required":false,"type":"string"}]}})"));
  s.push_back(nlohmann::json::parse(R"({"op":"add-constraint","table":"t","now-ms":1001,
    "constraint":{"type":"primary-key","name":"pk","enforced":true,"field-ids":[1]}})"));
  for (int i = 0; i < rows; ++i) {
    s.push_back(
        {{"op", "commit"},
         {"table", "t"},
         {"now-ms", 2000 + i},
         {"operation", "append"},
         {"add",
          {{{"key", "r" + std::to_string(i)}, {"values", {{"1", i}, {"2", "x"}}}}}}});
  }
  int64_t id = 0;
  for (nlohmann::json& request : s) request["id"] = ++id;
  return s;
}

/// The session's request lines and the sample's answer lines (no newlines), recorded once
/// through the sample's own line interface, as its executable answers them.
struct Recorded {
  std::vector<std::string> requests;
  std::vector<std::string> answers;
  std::string answers_file;  ///< the answers, one a line, for ictk_bench_echo_peer
  size_t request_bytes = 0, answer_bytes = 0;
};

const Recorded& Recording() {
  static const Recorded recorded = [] {
    Recorded r;
    ictk::sample::Session sample(ictk::sample::Mutant::kNone);
    for (const nlohmann::json& request : Session(kRows)) {
      r.requests.push_back(ictk::DumpJson(request));
      r.answers.push_back(sample.CallLine(r.requests.back()));
      r.request_bytes += r.requests.back().size() + 1;
      r.answer_bytes += r.answers.back().size() + 1;
    }
    char path[] = "/tmp/ictk_adapter_bench_XXXXXX";
    const int fd = ::mkstemp(path);
    if (fd >= 0) {
      ::close(fd);
      r.answers_file = path;
      std::ofstream out(r.answers_file, std::ios::binary);
      for (const std::string& a : r.answers) out << a << '\n';
    }
    return r;
  }();
  return recorded;
}

std::string EchoPeer() { return std::string(ICTK_BIN_DIR) + "/ictk_bench_echo_peer"; }

/// `delta`: the session's answers were metadata deltas, not the recorded whole answers,
/// whose byte count is then not theirs.
void Counters(benchmark::State& state, int64_t sessions, bool delta = false) {
  const Recorded& r = Recording();
  state.counters["round_trips_per_s"] = benchmark::Counter(
      static_cast<double>(sessions * static_cast<int64_t>(r.requests.size())),
      benchmark::Counter::kIsRate);
  if (!delta)
    state.counters["answer_bytes_per_session"] = static_cast<double>(r.answer_bytes);
}

void RunSession(benchmark::State& state, const std::string& spec, bool delta = false) {
  ictk::BuiltinFactories builtins;
  builtins["sample"] = [](const std::string& q) { return ictk::MakeSampleAdapter(q); };
  ictk::AdapterOptions options;
  const auto session = Session(kRows, delta);
  int64_t sessions = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto adapter = ictk::MakeAdapter(spec, options, builtins);
    if (!adapter) {
      state.SkipWithError(adapter.error().message.c_str());
      return;
    }
    state.ResumeTiming();
    for (const nlohmann::json& request : session) {
      auto r = (*adapter)->Call(request);
      if (!r) {
        state.SkipWithError(r.error().message.c_str());
        return;
      }
      benchmark::DoNotOptimize(r);
    }
    state.PauseTiming();
    adapter->reset();
    ++sessions;
    state.ResumeTiming();
  }
  Counters(state, sessions, delta);
}

void BM_Builtin(benchmark::State& state) { RunSession(state, "builtin:sample"); }
void BM_Lib(benchmark::State& state) {
  RunSession(state, std::string("lib:") + ICTK_LIB_DIR + "/libictk_sample_adapter.so");
}
// The same session with metadata deltas offered: the answers carry what changed.
void BM_BuiltinDelta(benchmark::State& state) {
  RunSession(state, "builtin:sample", /*delta=*/true);
}
void BM_LibDelta(benchmark::State& state) {
  RunSession(state, std::string("lib:") + ICTK_LIB_DIR + "/libictk_sample_adapter.so",
             /*delta=*/true);
}
void BM_Exec(benchmark::State& state) {
  RunSession(state, std::string("exec:") + ICTK_BIN_DIR + "/ictk-sample-adapter");
}
/// The exec transport against the peer that answers the recorded lines.
void BM_ExecReplay(benchmark::State& state) {
  if (Recording().answers_file.empty()) return state.SkipWithError("no temporary file");
  RunSession(state, "exec:" + EchoPeer() + " " + Recording().answers_file);
}

/// The peer as a child with two pipes, driven by plain blocking writes and reads.
class PipePeer {
 public:
  bool Start(const std::string& answers_file) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0) return false;
    if (::pipe2(out, O_CLOEXEC) != 0) return false;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    const std::string peer = EchoPeer();
    char* argv[] = {const_cast<char*>(peer.c_str()),
                    const_cast<char*>(answers_file.c_str()), nullptr};
    const int rc = ::posix_spawn(&pid_, peer.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
    return rc == 0;
  }
  /// Writes `line` and a newline, then reads one answer line into `answer`.
  bool RoundTrip(const std::string& line, std::string& answer) {
    line_.assign(line);
    line_.push_back('\n');
    for (size_t done = 0; done < line_.size();) {
      const ssize_t w = ::write(to_, line_.data() + done, line_.size() - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return false;
      done += static_cast<size_t>(w);
    }
    size_t scanned = 0;
    for (;;) {
      const size_t nl = buffer_.find('\n', scanned);
      if (nl != std::string::npos) {
        answer.assign(buffer_, 0, nl);
        buffer_.erase(0, nl + 1);
        return true;
      }
      scanned = buffer_.size();
      const ssize_t got = ::read(from_, chunk_, sizeof chunk_);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      buffer_.append(chunk_, static_cast<size_t>(got));
    }
  }
  ~PipePeer() {
    if (to_ >= 0) ::close(to_);
    if (from_ >= 0) ::close(from_);
    if (pid_ > 0) ::waitpid(pid_, nullptr, 0);
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string line_, buffer_;
  char chunk_[64u << 10];
};

/// The bare echo: the same request bytes out and answer bytes back through the pipes.
void BM_BareEcho(benchmark::State& state) {
  const Recorded& r = Recording();
  if (r.answers_file.empty()) return state.SkipWithError("no temporary file");
  int64_t sessions = 0;
  std::string answer;
  for (auto _ : state) {
    state.PauseTiming();
    auto peer = std::make_unique<PipePeer>();
    if (!peer->Start(r.answers_file))
      return state.SkipWithError("could not start the peer");
    state.ResumeTiming();
    for (size_t i = 0; i < r.requests.size(); ++i) {
      if (!peer->RoundTrip(r.requests[i], answer))
        return state.SkipWithError("the peer stopped answering");
      if (answer.size() != r.answers[i].size())
        return state.SkipWithError("the peer answered other bytes");
      benchmark::DoNotOptimize(answer.data());
    }
    state.PauseTiming();
    peer.reset();
    ++sessions;
    state.ResumeTiming();
  }
  Counters(state, sessions);
}

/// The bare parse: the same answer lines into JSON objects, nothing else.
void BM_BareParse(benchmark::State& state) {
  const Recorded& r = Recording();
  int64_t sessions = 0;
  for (auto _ : state) {
    for (const std::string& line : r.answers) {
      nlohmann::json j = nlohmann::json::parse(line);
      benchmark::DoNotOptimize(j);
    }
    ++sessions;
  }
  Counters(state, sessions);
}

// Wall-clock time is what a transport costs (the peer's time is not the benchmark's CPU).
BENCHMARK(BM_Builtin)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Lib)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BuiltinDelta)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LibDelta)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Exec)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ExecReplay)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BareEcho)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BareParse)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (!Recording().answers_file.empty()) std::remove(Recording().answers_file.c_str());
  return 0;
}
