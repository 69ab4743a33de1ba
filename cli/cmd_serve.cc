/// \file
/// `ictk serve --adapter SPEC`: the exec protocol on stdin/stdout in front of any
/// adapter, so that a runner in any language can use `builtin:reference` as an oracle (or
/// `builtin:sample` as a ready implementation), and so that `--isolate` can run an
/// in-process adapter in a child. One request line in, one response line out. A line that
/// is not a JSON object is answered `invalid-request` with `"id": null`. A transport
/// failure of the adapter behind it is passed on in kind: a crash ends serve (exit 3), a
/// timeout leaves the request unanswered, a protocol error becomes a line that is not
/// JSON.
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "adapters/adapter.h"
#include "cli/adapter_config.h"
#include "cli/commands.h"
#include "codec/json_text.h"

namespace ictk::cli {
namespace {

bool WriteLine(const std::string& line) {
  if (std::fwrite(line.data(), 1, line.size(), stdout) != line.size()) return false;
  if (std::fputc('\n', stdout) == EOF) return false;
  return std::fflush(stdout) == 0;
}

nlohmann::json InvalidRequest(const std::string& message) {
  return {{"id", nullptr},
          {"result", "rejected"},
          {"error", {{"kind", "invalid-request"}, {"message", message}}}};
}

}  // namespace

int RunServe(const GlobalOptions& global, const AdapterFlags& flags) {
  // A harness that goes away must not kill serve with SIGPIPE mid-line; writes fail
  // instead.
  ::signal(SIGPIPE, SIG_IGN);
  auto adapter = OpenAdapter(global, flags);
  if (!adapter) {
    std::fprintf(stderr, "ictk serve: %s\n", adapter.error().message.c_str());
    return 2;
  }
  char* buf = nullptr;
  size_t cap = 0;
  int exit_code = 0;
  for (;;) {
    ssize_t n = ::getline(&buf, &cap, stdin);
    if (n < 0) break;  // EOF: the harness is done
    std::string_view line(buf, static_cast<size_t>(n));
    if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    auto request = ParseJsonText(line, "request");
    nlohmann::json response;
    if (!request) {
      response = InvalidRequest("not JSON: " + request.error().message);
    } else if (!request->is_object()) {
      response = InvalidRequest("a request must be a JSON object");
    } else {
      auto answer = (*adapter)->Call(*request);
      if (!answer) {
        const std::string& why = answer.error().message;
        std::fprintf(stderr, "ictk serve: %s\n", why.c_str());
        std::string tail = (*adapter)->StderrTail();
        if (!tail.empty()) std::fprintf(stderr, "%s\n", tail.c_str());
        std::fflush(stderr);
        auto failure = TransportFailureOf(answer.error());
        if (failure == TransportFailure::kTimeout) {
          // Leave the request unanswered, as the adapter did; the harness times out.
          while (::getline(&buf, &cap, stdin) >= 0) {
          }
          break;
        }
        if (failure == TransportFailure::kProtocolError) {
          if (!WriteLine("ictk serve: " + why)) break;
          continue;
        }
        exit_code = 3;
        break;
      }
      response = std::move(*answer);
    }
    if (!WriteLine(DumpJson(response))) {
      exit_code = 1;
      break;
    }
  }
  std::free(buf);
  return exit_code;
}

}  // namespace ictk::cli
