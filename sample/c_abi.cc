/// \file
/// `libictk_sample_adapter.so`: the sample behind the C ABI of include/ictk/adapter.h.
/// `ictk_adapter_init` takes no arguments, so the mutant comes from the environment
/// variable ICTK_SAMPLE_MUTANT (unset or empty: the correct sample; an unknown name makes
/// init fail), the style from ICTK_SAMPLE_STYLE (unset or empty: canonical; `divergent`;
/// anything else makes init fail) and the profile from ICTK_SAMPLE_PROFILE (unset or
/// empty: the writer; `v3-reader`, `v4-reader`). These are the only environment reads
/// outside cli/. No exception crosses the ABI.
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>

#include "ictk/adapter.h"
#include "sample/session_internal.h"

namespace {

struct SamplePrivate {
  SamplePrivate(ictk::sample::Mutant m, ictk::sample::Style s, ictk::sample::Profile p)
      : session(m, s, p) {}
  ictk::sample::Session session;
  std::string last_error;
};

SamplePrivate* Self(IctkAdapter* a) {
  return static_cast<SamplePrivate*>(a->private_data);
}

int Call(IctkAdapter* self, const char* request_json, char** response_json) {
  if (self == nullptr || self->private_data == nullptr || response_json == nullptr)
    return 1;
  SamplePrivate* p = Self(self);
  try {
    if (request_json == nullptr) {
      p->last_error = "request is NULL";
      return 1;
    }
    const std::string answer = p->session.CallLine(request_json);
    char* out = static_cast<char*>(std::malloc(answer.size() + 1));
    if (out == nullptr) {
      p->last_error = "out of memory";
      return 1;
    }
    std::memcpy(out, answer.c_str(), answer.size() + 1);
    *response_json = out;
    p->last_error.clear();
    return 0;
  } catch (const std::exception& e) {
    p->last_error = e.what();
  } catch (...) {
    p->last_error = "unknown failure";
  }
  return 1;
}

void FreeString(IctkAdapter*, char* str) { std::free(str); }

const char* LastError(IctkAdapter* self) {
  if (self == nullptr || self->private_data == nullptr) return "adapter released";
  SamplePrivate* p = Self(self);
  return p->last_error.empty() ? nullptr : p->last_error.c_str();
}

void Release(IctkAdapter* self) {
  if (self == nullptr) return;
  delete Self(self);
  self->private_data = nullptr;
  self->release = nullptr;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int ictk_adapter_init(
    IctkAdapter* out) {
  if (out == nullptr) return 1;
  try {
    const char* env = std::getenv("ICTK_SAMPLE_MUTANT");
    const char* style_env = std::getenv("ICTK_SAMPLE_STYLE");
    std::string query;
    if (env != nullptr && *env != '\0') query = std::string("mutant=") + env;
    if (style_env != nullptr && *style_env != '\0')
      query += (query.empty() ? "style=" : "&style=") + std::string(style_env);
    ictk::sample::Mutant mutant = ictk::sample::Mutant::kNone;
    const char* profile_env = std::getenv("ICTK_SAMPLE_PROFILE");
    if (profile_env != nullptr && *profile_env != '\0')
      query += (query.empty() ? "profile=" : "&profile=") + std::string(profile_env);
    ictk::sample::Style style = ictk::sample::Style::kCanonical;
    ictk::sample::Profile profile = ictk::sample::Profile::kWriter;
    if (!ictk::sample::ParseSampleQuery(query, mutant, style, profile).empty()) return 2;
    out->abi_version = ICTK_ADAPTER_ABI_VERSION;
    out->call = &Call;
    out->free_string = &FreeString;
    out->last_error = &LastError;
    out->release = &Release;
    out->private_data = new SamplePrivate(mutant, style, profile);
    return 0;
  } catch (...) {
    return 1;
  }
}
