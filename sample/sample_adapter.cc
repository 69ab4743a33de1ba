/// \file
/// builtin:sample (sample_adapter.h): the sample's session in-process, behind the kit's
/// Adapter interface. The only part of the sample that sees adapters/ and the codec's
/// Result; it is the target `ictk::sample`, apart from the core `ictk::sample_core`.
#include "sample/sample_adapter.h"

#include "sample/session_internal.h"

namespace ictk::sample {
namespace {

/// builtin:sample — the session in-process.
class BuiltinSampleAdapter : public Adapter {
 public:
  BuiltinSampleAdapter(Mutant mutant, Style style, Profile profile,
                       std::string description)
      : session_(mutant, style, profile), description_(std::move(description)) {}
  Result<nlohmann::json> Call(const nlohmann::json& request) override {
    return session_.Call(request);
  }
  std::string Describe() const override { return description_; }

 private:
  Session session_;
  std::string description_;
};

}  // namespace
}  // namespace ictk::sample

namespace ictk {

Result<std::unique_ptr<Adapter>> MakeSampleAdapter(const std::string& query) {
  sample::Mutant mutant = sample::Mutant::kNone;
  sample::Style style = sample::Style::kCanonical;
  sample::Profile profile = sample::Profile::kWriter;
  std::string problem = sample::ParseSampleQuery(query, mutant, style, profile);
  if (!problem.empty()) return MakeError(ErrorKind::kUsage, problem);
  std::string description = query.empty() ? "builtin:sample" : "builtin:sample?" + query;
  return std::unique_ptr<Adapter>(std::make_unique<sample::BuiltinSampleAdapter>(
      mutant, style, profile, std::move(description)));
}

}  // namespace ictk
