// The peer of ictk_adapter_bench's physical baselines: `ictk_bench_echo_peer FILE`
// answers each line it reads on stdin with the next line of FILE (from its first line
// again after the last), written whole and flushed, until end of input. It does no other
// work, so a session through it costs the pipes and the bytes alone: the same request
// bytes in, the same response bytes out as the sample's session.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

bool WriteAll(const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(1, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: ictk_bench_echo_peer RESPONSES-FILE\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::vector<std::string> answers;
  for (std::string line; std::getline(in, line);) answers.push_back(line + "\n");
  if (answers.empty()) {
    std::fprintf(stderr, "ictk_bench_echo_peer: no lines in %s\n", argv[1]);
    return 2;
  }
  size_t next = 0;
  std::string buffer;
  std::vector<char> chunk(64u << 10);
  for (;;) {
    const ssize_t got = ::read(0, chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return 0;
    buffer.append(chunk.data(), static_cast<size_t>(got));
    size_t start = 0;
    for (size_t nl; (nl = buffer.find('\n', start)) != std::string::npos;
         start = nl + 1) {
      if (!WriteAll(answers[next])) return 1;
      next = (next + 1) % answers.size();
    }
    buffer.erase(0, start);
  }
}
