/// \file
/// The `lib:` transport (lib_adapter.h): dlopen, `ictk_adapter_init`, and strings that
/// cross the C ABI only as NUL-terminated UTF-8, freed by the library's own free_string.
#include "adapters/lib_adapter.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "adapters/envelope.h"
#include "codec/json_text.h"
#include "ictk/adapter.h"

namespace ictk {
namespace {

using InitFn = int (*)(IctkAdapter*);

class LibAdapter final : public Adapter {
 public:
  LibAdapter(void* handle, InitFn init, std::string path, std::string description,
             size_t max_answer_bytes)
      : handle_(handle),
        init_(init),
        path_(std::move(path)),
        description_(std::move(description)),
        max_answer_bytes_(max_answer_bytes) {}

  ~LibAdapter() override {
    Release();
    // The library stays loaded: code it started (threads, atexit handlers) may still
    // refer to it, and unloading buys nothing at the end of a run.
    (void)handle_;
  }

  LibAdapter(const LibAdapter&) = delete;
  LibAdapter& operator=(const LibAdapter&) = delete;

  /// Initializes the struct and checks it: "" when usable, else why not.
  std::string Init() {
    api_ = IctkAdapter{};
    int rc = init_(&api_);
    if (rc != 0) return fmt::format("ictk_adapter_init returned {}", rc);
    if (api_.abi_version != ICTK_ADAPTER_ABI_VERSION) {
      // Another layout: nothing in the struct may be called, not even release.
      int version = api_.abi_version;
      api_ = IctkAdapter{};
      return fmt::format("abi_version {} is not the supported {}", version,
                         ICTK_ADAPTER_ABI_VERSION);
    }
    initialized_ = true;
    if (!api_.call || !api_.free_string || !api_.release) {
      return "ictk_adapter_init left call, free_string or release NULL";
    }
    return {};
  }

  Result<nlohmann::json> Call(const nlohmann::json& request) override {
    if (!initialized_) {
      std::string problem = Init();
      if (!problem.empty()) {
        Release();
        return MakeError(ErrorKind::kAdapter,
                         fmt::format("crash: {}: {}", path_, problem));
      }
    }
    std::string text = DumpJson(request);
    char* response = nullptr;
    int rc = api_.call(&api_, text.c_str(), &response);
    // An over-long answer is refused after looking at max_answer_bytes + 1 of its bytes.
    if (response && ::strnlen(response, max_answer_bytes_ + 1) > max_answer_bytes_) {
      const std::string start(response, std::min<size_t>(max_answer_bytes_, 200));
      api_.free_string(&api_, response);
      Release();
      return MakeError(
          ErrorKind::kAdapter,
          fmt::format(
              "protocol-error: the response to request {} is longer than {} bytes "
              "(--max-answer-bytes); it starts \"{}\"",
              request.is_object() && request.contains("id") ? DumpJson(request["id"])
                                                            : std::string("null"),
              max_answer_bytes_, Excerpt(start)));
    }
    std::string line = response ? std::string(response) : std::string();
    if (response) api_.free_string(&api_, response);
    if (rc != 0) {
      const char* why = api_.last_error ? api_.last_error(&api_) : nullptr;
      nlohmann::json error = {{"result", "error"},
                              {"message", fmt::format("call returned {}: {}", rc,
                                                      why ? why : "(no last_error)")}};
      error["id"] = request.is_object() && request.contains("id")
                        ? request["id"]
                        : nlohmann::json(nullptr);
      return error;
    }
    if (!response) {
      Release();
      return MakeError(ErrorKind::kAdapter,
                       "protocol-error: call returned 0 but set no response");
    }
    auto parsed = ParseJsonText(line, "response");
    if (!parsed) {
      Release();
      return MakeError(
          ErrorKind::kAdapter,
          fmt::format("protocol-error: the response is not JSON ({}): \"{}\"",
                      parsed.error().message, Excerpt(line)));
    }
    std::string problem = EnvelopeProblem(request, *parsed);
    if (!problem.empty()) {
      Release();
      return MakeError(ErrorKind::kAdapter, "protocol-error: " + problem);
    }
    return std::move(*parsed);
  }

  std::string Describe() const override { return description_; }

 private:
  void Release() {
    if (initialized_ && api_.release) api_.release(&api_);
    initialized_ = false;
    api_ = IctkAdapter{};
  }

  void* handle_;
  InitFn init_;
  std::string path_;
  std::string description_;
  size_t max_answer_bytes_;
  IctkAdapter api_{};
  bool initialized_ = false;
};

}  // namespace

Result<std::unique_ptr<Adapter>> MakeLibAdapter(const std::string& path,
                                                std::string description,
                                                size_t max_answer_bytes) {
  // A path without '/' would make dlopen search the library path; the spec names a file.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = ::dlerror();
    return MakeError(ErrorKind::kAdapter, fmt::format("crash: cannot load {}: {}", path,
                                                      why ? why : "dlopen failed"));
  }
  void* symbol = ::dlsym(handle, "ictk_adapter_init");
  if (!symbol) {
    return MakeError(ErrorKind::kAdapter,
                     fmt::format("crash: {} does not export ictk_adapter_init", path));
  }
  auto adapter =
      std::make_unique<LibAdapter>(handle, reinterpret_cast<InitFn>(symbol), path,
                                   std::move(description), max_answer_bytes);
  std::string problem = adapter->Init();
  if (!problem.empty()) {
    return MakeError(ErrorKind::kAdapter, fmt::format("crash: {}: {}", path, problem));
  }
  return std::unique_ptr<Adapter>(std::move(adapter));
}

}  // namespace ictk
