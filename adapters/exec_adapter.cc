/// \file
/// The `exec:` transport (exec_adapter.h): posix_spawn with three pipes, poll() with a
/// deadline per request on the pipes and on the child itself (a pidfd), a stderr drain
/// thread with a bounded tail, and a process group per child so that a timeout, a crash
/// or the destructor kills the child and whatever it started.
#include "adapters/exec_adapter.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

#include "adapters/envelope.h"
#include "codec/json_text.h"

extern char** environ;

namespace ictk {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kReadChunk = 64u << 10;
/// How long a child that closed its output or its input gets to exit on its own before it
/// is killed (only to report its exit status; it is killed either way).
constexpr int kExitGraceMs = 200;
/// Without a pidfd (a kernel before 5.3), how often the request loop looks whether the
/// child has exited.
constexpr int kExitPollMs = 20;

/// A descriptor that becomes readable when process `pid` exits (pidfd_open, Linux 5.3),
/// or -1 when the kernel has none. It is close-on-exec by definition.
int OpenPidFd(pid_t pid) {
#ifdef SYS_pidfd_open
  const long fd = ::syscall(SYS_pidfd_open, pid, 0);
  return fd < 0 ? -1 : static_cast<int>(fd);
#else
  (void)pid;
  return -1;
#endif
}

std::string ErrnoText(int err) { return std::strerror(err); }

/// Closes a descriptor and forgets it.
void CloseFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

/// A pipe whose two ends are close-on-exec and numbered above 2, so that dup2 onto 0, 1,
/// 2 in the child always copies (and clears close-on-exec) rather than being a no-op.
bool MakePipe(int fds[2]) {
  int raw[2];
  if (::pipe2(raw, O_CLOEXEC) != 0) return false;
  for (int i = 0; i < 2; ++i) {
    if (raw[i] <= 2) {
      int moved = ::fcntl(raw[i], F_DUPFD_CLOEXEC, 3);
      if (moved < 0) {
        ::close(raw[0]);
        ::close(raw[1]);
        return false;
      }
      ::close(raw[i]);
      raw[i] = moved;
    }
  }
  fds[0] = raw[0];
  fds[1] = raw[1];
  return true;
}

void SetNonBlocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

int RemainingMs(Clock::time_point deadline) {
  auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  if (left.count() <= 0) return 0;
  return left.count() > 1000000 ? 1000000 : static_cast<int>(left.count());
}

/// "exited with status 3", "was killed by signal 11 (Segmentation fault)".
std::string DescribeExit(const siginfo_t& info) {
  if (info.si_code == CLD_EXITED)
    return fmt::format("exited with status {}", info.si_status);
  const char* name = ::strsignal(info.si_status);
  return fmt::format("was killed by signal {} ({})", info.si_status, name ? name : "?");
}

/// The last `capacity` bytes written to a child's stderr, kept across restarts.
class StderrTail {
 public:
  explicit StderrTail(size_t capacity) : capacity_(capacity) {}

  void Append(const char* data, size_t n) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (capacity_ == 0) return;
    if (n >= capacity_) {
      text_.assign(data + (n - capacity_), capacity_);
      return;
    }
    text_.append(data, n);
    if (text_.size() > capacity_) text_.erase(0, text_.size() - capacity_);
  }
  void Append(std::string_view s) { Append(s.data(), s.size()); }

  std::string Get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return text_;
  }

 private:
  mutable std::mutex mutex_;
  size_t capacity_;
  std::string text_;
};

/// Reads `fd` into `tail` until EOF, or until `stop_fd` becomes readable (then whatever
/// is already in the pipe is still read).
void DrainStderr(int fd, int stop_fd, StderrTail* tail) {
  char buf[4096];
  auto drain_available = [&]() {
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n > 0) {
        tail->Append(buf, static_cast<size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      return n == 0;  // true at EOF
    }
  };
  for (;;) {
    pollfd fds[2] = {{fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
    int r = ::poll(fds, 2, -1);
    if (r < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[0].revents != 0) {
      if (drain_available()) return;
      if ((fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) != 0 &&
          (fds[0].revents & POLLIN) == 0) {
        return;
      }
    }
    if (fds[1].revents != 0) {
      drain_available();
      return;
    }
  }
}

/// Blocks SIGPIPE in the calling thread for its lifetime; a SIGPIPE raised by a write to
/// a pipe whose reader is gone is then consumed, so the harness never dies of it and no
/// process-wide signal disposition changes.
class ScopedSigpipeBlock {
 public:
  ScopedSigpipeBlock() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    ::sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    ::pthread_sigmask(SIG_BLOCK, &set_, &old_);
  }
  ~ScopedSigpipeBlock() {
    if (!was_pending_) {
      sigset_t pending;
      sigemptyset(&pending);
      ::sigpending(&pending);
      if (sigismember(&pending, SIGPIPE) == 1) {
        timespec zero{0, 0};
        while (::sigtimedwait(&set_, nullptr, &zero) < 0 && errno == EINTR) {
        }
      }
    }
    ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  ScopedSigpipeBlock(const ScopedSigpipeBlock&) = delete;
  ScopedSigpipeBlock& operator=(const ScopedSigpipeBlock&) = delete;

 private:
  sigset_t set_, old_;
  bool was_pending_ = false;
};

class ExecAdapter final : public Adapter {
 public:
  ExecAdapter(std::vector<std::string> argv, const AdapterOptions& options,
              std::string description)
      : argv_(std::move(argv)),
        options_(options),
        description_(std::move(description)),
        tail_(options.stderr_tail_bytes) {}

  ~ExecAdapter() override { Stop(/*graceful=*/true); }

  ExecAdapter(const ExecAdapter&) = delete;
  ExecAdapter& operator=(const ExecAdapter&) = delete;

  Result<nlohmann::json> Call(const nlohmann::json& request) override;
  std::string Describe() const override { return description_; }
  std::string StderrTail() const override { return tail_.Get(); }
  bool Restarting() const override { return pid_ < 0 && starts_ > 0; }

 private:
  /// Starts the child; an Error "crash: cannot start ..." when it cannot be spawned.
  Result<bool> Start();
  /// What a call reads of the child's output so far.
  struct ReadState {
    size_t scanned = 0;                  ///< bytes of buffer_ already searched for '\n'
    size_t newline = std::string::npos;  ///< where the answer line ends in buffer_
    bool ended = false;                  ///< the child closed its output
  };
  /// Reads what the child wrote: one read, or with `drain` until the pipe is empty (or a
  /// whole line is there). Never holds more than max_line_bytes + 1 bytes: a longer line
  /// is refused before the rest of it is read. Returns the failure to report, if any.
  std::optional<tl::unexpected<Error>> ReadOutput(bool drain, ReadState& r,
                                                  const std::string& request_id);
  /// Writes `text` (one request line) and waits for the answer line, watching the child
  /// itself as well as its pipes; the end of that line in buffer_, or the failure.
  Result<size_t> Exchange(const std::string& text, const std::string& request_id,
                          Clock::time_point deadline);
  /// The answer line at the front of buffer_, parsed and checked against the request's
  /// envelope.
  Result<nlohmann::json> ParseAnswer(const nlohmann::json& request,
                                     const std::string& request_id, size_t newline);
  /// Ends the child: closes its stdin and (graceful) waits a little for it to exit, then
  /// kills its process group, reaps it and joins the stderr drain.
  void Stop(bool graceful);
  /// Kills the child and returns an Error "<verdict>: <detail>".
  tl::unexpected<Error> Fail(std::string_view verdict, const std::string& detail);
  /// The child's exit, described, after waiting up to `wait_ms` for it ("" if still
  /// running; the child is not reaped here).
  std::string ExitDescription(int wait_ms);
  /// Checks that the child wrote nothing since the previous response and is still alive.
  std::optional<tl::unexpected<Error>> CheckIdle();

  std::vector<std::string> argv_;
  AdapterOptions options_;
  std::string description_;
  ::ictk::StderrTail tail_;

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  int stop_pipe_[2] = {-1, -1};
  /// Readable once the child has exited, whatever its own children keep open (-1 when
  /// the kernel has no pidfd: the request loop then looks every kExitPollMs).
  int pid_fd_ = -1;
  std::thread drain_;
  std::string buffer_;  ///< bytes read from stdout past the last response line
  /// What one read() takes: allocated once, not per request (a fresh 64 KB block a request
  /// was returned to the system and faulted in again every time).
  std::vector<char> chunk_ = std::vector<char>(kReadChunk);
  /// The id of the request this process answered last (to name a second line for it).
  std::optional<nlohmann::json> previous_id_;
  bool exited_ = false;   ///< the child has exited (a zombie until Stop reaps it)
  std::string exit_how_;  ///< how it exited, when it has
  int starts_ = 0;
};

namespace {

/// Spawns `argv` (searched on PATH when it names no folder) with `in`, `out` and `err` as
/// its standard streams, in a process group of its own (so that a timeout kills the child
/// and its children), and with the signals the harness ignores or blocks (SIGPIPE among
/// them) reset. Returns posix_spawn's error number, 0 on success.
int SpawnInGroup(std::vector<std::string>& argv, int in, int out, int err, pid_t& pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in, 0);
  posix_spawn_file_actions_adddup2(&actions, out, 1);
  posix_spawn_file_actions_adddup2(&actions, err, 2);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig :
       {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2}) {
    sigaddset(&defaults, sig);
  }
  posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t empty;
  sigemptyset(&empty);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setflags(
      &attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const bool search = argv[0].find('/') == std::string::npos;
  const int rc =
      search ? ::posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ)
             : ::posix_spawn(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return rc;
}

}  // namespace

Result<bool> ExecAdapter::Start() {
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  if (!MakePipe(in) || !MakePipe(out) || !MakePipe(err) || !MakePipe(stop_pipe_)) {
    int e = errno;
    for (int* p : {in, out, err, stop_pipe_}) {
      CloseFd(p[0]);
      CloseFd(p[1]);
    }
    return MakeError(ErrorKind::kAdapter, fmt::format("crash: cannot start {}: pipe: {}",
                                                      description_, ErrnoText(e)));
  }

  pid_t pid = -1;
  const int rc = SpawnInGroup(argv_, in[0], out[1], err[1], pid);
  CloseFd(in[0]);
  CloseFd(out[1]);
  CloseFd(err[1]);
  if (rc != 0) {
    CloseFd(in[1]);
    CloseFd(out[0]);
    CloseFd(err[0]);
    CloseFd(stop_pipe_[0]);
    CloseFd(stop_pipe_[1]);
    return MakeError(ErrorKind::kAdapter, fmt::format("crash: cannot start {}: {}",
                                                      description_, ErrnoText(rc)));
  }
  if (options_.max_memory_mb > 0) {
    // posix_spawn has no rlimit attribute: the limit is set on the child from here,
    // microseconds after its exec, before it has read a request (docs/robustness.md).
    const rlim_t bytes = static_cast<rlim_t>(options_.max_memory_mb) << 20;
    const rlimit limit{bytes, bytes};
    if (::prlimit(pid, RLIMIT_AS, &limit, nullptr) != 0) {
      int e = errno;
      ::kill(-pid, SIGKILL);
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      CloseFd(in[1]);
      CloseFd(out[0]);
      CloseFd(err[0]);
      CloseFd(stop_pipe_[0]);
      CloseFd(stop_pipe_[1]);
      return MakeError(ErrorKind::kAdapter,
                       fmt::format("crash: cannot start {}: cannot limit its memory: {}",
                                   description_, ErrnoText(e)));
    }
  }
  pid_ = pid;
  pid_fd_ = OpenPidFd(pid);
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];
  stderr_fd_ = err[0];
  SetNonBlocking(stdin_fd_);
  SetNonBlocking(stdout_fd_);
  SetNonBlocking(stderr_fd_);
  buffer_.clear();
  previous_id_.reset();
  exited_ = false;
  exit_how_.clear();
  if (starts_++ > 0) tail_.Append("\n[ictk: adapter restarted]\n");
  drain_ = std::thread(DrainStderr, stderr_fd_, stop_pipe_[0], &tail_);
  return true;
}

std::string ExecAdapter::ExitDescription(int wait_ms) {
  if (pid_ < 0) return "is not running";
  auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
  for (;;) {
    if (!exited_) {
      siginfo_t info;
      std::memset(&info, 0, sizeof info);
      // WNOWAIT: the child stays a zombie, so its process group ID cannot be reused
      // before Stop kills the group.
      if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) ==
              0 &&
          info.si_pid == pid_) {
        exited_ = true;
        exit_how_ = DescribeExit(info);
      }
    }
    if (exited_) return exit_how_;
    if (Clock::now() >= deadline) return {};
    ::usleep(1000);
  }
}

void ExecAdapter::Stop(bool graceful) {
  if (pid_ < 0) return;
  CloseFd(stdin_fd_);  // a well-behaved adapter exits at EOF
  if (graceful) ExitDescription(kExitGraceMs);
  ::kill(-pid_, SIGKILL);  // the whole group: the child and whatever it started
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  CloseFd(pid_fd_);
  CloseFd(stdout_fd_);
  if (stop_pipe_[1] >= 0) {
    char c = 0;
    ssize_t ignored = ::write(stop_pipe_[1], &c, 1);
    (void)ignored;
  }
  if (drain_.joinable()) drain_.join();
  CloseFd(stderr_fd_);
  CloseFd(stop_pipe_[0]);
  CloseFd(stop_pipe_[1]);
  buffer_.clear();
}

tl::unexpected<Error> ExecAdapter::Fail(std::string_view verdict,
                                        const std::string& detail) {
  Stop(/*graceful=*/false);
  // A crash under a memory limit is most often the limit: say it is in force.
  const std::string limit =
      verdict == "crash" && options_.max_memory_mb > 0
          ? fmt::format(" (it runs under --max-memory {} MiB)", options_.max_memory_mb)
          : "";
  return MakeError(ErrorKind::kAdapter, fmt::format("{}: {}{}", verdict, detail, limit));
}

std::optional<tl::unexpected<Error>> ExecAdapter::CheckIdle() {
  if (buffer_.empty()) {
    char buf[4096];
    for (;;) {
      ssize_t n = ::read(stdout_fd_, buf, sizeof buf);
      if (n > 0) {
        buffer_.append(buf, static_cast<size_t>(n));
        break;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n == 0) {
        std::string how = ExitDescription(kExitGraceMs);
        return Fail("crash", fmt::format("the adapter {} between requests",
                                         how.empty() ? "closed its output" : how));
      }
      break;  // EAGAIN: nothing written, as it should be
    }
  }
  if (!buffer_.empty()) {
    return Fail(
        "protocol-error",
        fmt::format("output after the previous response, before any request: \"{}\"",
                    Excerpt(buffer_)));
  }
  std::string how = ExitDescription(0);
  if (!how.empty()) {
    return Fail("crash", fmt::format("the adapter {} between requests", how));
  }
  return std::nullopt;
}

Result<nlohmann::json> ExecAdapter::Call(const nlohmann::json& request) {
  std::string request_id =
      DumpJson(request.is_object() && request.contains("id") ? request["id"]
                                                             : nlohmann::json(nullptr));
  auto deadline = Clock::now() + std::chrono::milliseconds(options_.timeout_ms);
  if (pid_ >= 0) {
    if (auto failure = CheckIdle()) return *failure;
  }
  if (pid_ < 0) {
    auto started = Start();
    if (!started) return tl::unexpected(started.error());
    deadline += std::chrono::milliseconds(options_.startup_grace_ms);
  }
  std::string text = DumpJson(request);
  text.push_back('\n');
  Result<size_t> newline = Exchange(text, request_id, deadline);
  if (!newline) return tl::unexpected(newline.error());
  return ParseAnswer(request, request_id, *newline);
}

std::optional<tl::unexpected<Error>> ExecAdapter::ReadOutput(
    bool drain, ReadState& r, const std::string& request_id) {
  for (;;) {
    const size_t room = options_.max_line_bytes + 1 > buffer_.size()
                            ? options_.max_line_bytes + 1 - buffer_.size()
                            : 1;
    const ssize_t got =
        ::read(stdout_fd_, chunk_.data(), std::min(room, chunk_.size()));
    if (got == 0) {
      r.ended = true;
      return std::nullopt;
    }
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) return std::nullopt;
      return Fail("crash", fmt::format("read: {}", ErrnoText(errno)));
    }
    buffer_.append(chunk_.data(), static_cast<size_t>(got));
    if (r.newline == std::string::npos) {
      r.newline = buffer_.find('\n', r.scanned);
      r.scanned = buffer_.size();
    }
    if (r.newline == std::string::npos && buffer_.size() > options_.max_line_bytes) {
      return Fail(
          "protocol-error",
          fmt::format("the response to request {} is longer than {} bytes "
                      "(--max-answer-bytes; no newline in them); it starts \"{}\"",
                      request_id, options_.max_line_bytes, Excerpt(buffer_)));
    }
    if (!drain || r.newline != std::string::npos) return std::nullopt;
  }
}

Result<size_t> ExecAdapter::Exchange(const std::string& text,
                                     const std::string& request_id,
                                     Clock::time_point deadline) {
  size_t written = 0;
  ReadState r;
  ScopedSigpipeBlock no_sigpipe;
  while (written < text.size() || r.newline == std::string::npos) {
    int wait_ms = RemainingMs(deadline);
    if (wait_ms == 0) {
      return Fail("timeout", fmt::format("no response to request {} within {} ms",
                                         request_id, options_.timeout_ms));
    }
    pollfd fds[3];
    nfds_t n = 0;
    int in_slot = -1, pid_slot = -1;
    fds[n++] = {stdout_fd_, POLLIN, 0};
    if (written < text.size()) {
      in_slot = static_cast<int>(n);
      fds[n++] = {stdin_fd_, POLLOUT, 0};
    }
    // The child itself, not only its pipes: a child that exits while a process it
    // started keeps its output open is a crash now, not a timeout later.
    if (pid_fd_ >= 0) {
      pid_slot = static_cast<int>(n);
      fds[n++] = {pid_fd_, POLLIN, 0};
    } else {
      wait_ms = std::min(wait_ms, kExitPollMs);
    }
    const int polled = ::poll(fds, n, wait_ms);
    if (polled < 0) {
      if (errno == EINTR) continue;
      return Fail("crash", fmt::format("poll: {}", ErrnoText(errno)));
    }
    if (in_slot >= 0 && fds[in_slot].revents != 0) {
      ssize_t w = ::write(stdin_fd_, text.data() + written, text.size() - written);
      if (w > 0) {
        written += static_cast<size_t>(w);
      } else if (w < 0 && errno != EAGAIN && errno != EINTR) {
        // EPIPE: the child closed its input, which means it stopped reading requests.
        std::string how = ExitDescription(kExitGraceMs);
        return Fail("crash",
                    fmt::format("the adapter {} before reading request {}",
                                how.empty() ? "closed its input" : how, request_id));
      }
    }
    if (fds[0].revents != 0) {
      if (auto failure = ReadOutput(/*drain=*/false, r, request_id)) return *failure;
      if (r.ended) {
        std::string how = ExitDescription(kExitGraceMs);
        return Fail("crash",
                    fmt::format("the adapter {} without answering request {}",
                                how.empty() ? "closed its output" : how, request_id));
      }
    }
    const bool died =
        pid_slot >= 0 ? fds[pid_slot].revents != 0 : !ExitDescription(0).empty();
    if (died) {
      // What the child wrote before it exited still counts: a whole answer is taken (the
      // exit is then seen before the next request).
      if (r.newline == std::string::npos) {
        if (auto failure = ReadOutput(/*drain=*/true, r, request_id)) return *failure;
      }
      if (r.newline != std::string::npos && written == text.size()) return r.newline;
      std::string how = ExitDescription(kExitGraceMs);
      if (how.empty()) how = "ended";
      return Fail(
          "crash",
          written < text.size()
              ? fmt::format("the adapter {} before reading request {}", how, request_id)
              : fmt::format("the adapter {} without answering request {}", how,
                            request_id));
    }
  }
  return r.newline;
}

Result<nlohmann::json> ExecAdapter::ParseAnswer(const nlohmann::json& request,
                                                const std::string& request_id,
                                                size_t newline) {
  // Parsed where it was read, then dropped from the buffer (no copy of the line).
  std::string_view line(buffer_.data(), newline);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  auto parsed = ParseJsonText(line, "response");
  const std::string excerpt = parsed ? std::string() : Excerpt(line);
  buffer_.erase(0, newline + 1);
  if (!parsed) {
    return Fail("protocol-error",
                fmt::format("the response to request {} is not JSON ({}): \"{}\"",
                            request_id, parsed.error().message, excerpt));
  }
  std::string problem = EnvelopeProblem(request, *parsed);
  if (!problem.empty() && previous_id_ && parsed->is_object() && parsed->contains("id") &&
      (*parsed)["id"] == *previous_id_) {
    // The extra line arrived after the idle check: name the request that caused it.
    problem = fmt::format(
        "a second response to request {} (output after the previous "
        "response)",
        DumpJson(*previous_id_));
  }
  previous_id_ = request.is_object() && request.contains("id") ? request["id"]
                                                               : nlohmann::json(nullptr);
  if (!problem.empty()) {
    return Fail("protocol-error",
                fmt::format("{} in the response to request {}", problem, request_id));
  }
  return std::move(*parsed);
}

}  // namespace

std::unique_ptr<Adapter> MakeExecAdapter(std::vector<std::string> argv,
                                         const AdapterOptions& options,
                                         std::string description) {
  return std::make_unique<ExecAdapter>(std::move(argv), options, std::move(description));
}

}  // namespace ictk
