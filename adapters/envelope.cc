/// \file
/// The response envelope check shared by the exec and lib transports.
#include "adapters/envelope.h"

#include <fmt/format.h>

#include "codec/json_text.h"

namespace ictk {

std::string EnvelopeProblem(const nlohmann::json& request,
                            const nlohmann::json& response) {
  if (!response.is_object()) return "the response is not a JSON object";
  nlohmann::json expected_id = nullptr;
  if (request.is_object()) {
    auto it = request.find("id");
    if (it != request.end()) expected_id = *it;
  }
  auto id = response.find("id");
  if (id == response.end()) {
    return fmt::format("the response has no \"id\" (request id {})",
                       DumpJson(expected_id));
  }
  if (*id != expected_id) {
    return fmt::format("response id {} does not match request id {}", DumpJson(*id),
                       DumpJson(expected_id));
  }
  auto result = response.find("result");
  if (result == response.end() || !result->is_string()) {
    return "the response has no \"result\" string";
  }
  const auto& r = result->get_ref<const std::string&>();
  if (r != "ok" && r != "rejected" && r != "unsupported" && r != "error") {
    return fmt::format(
        "unknown result \"{}\" (expected ok, rejected, unsupported or error)",
        Excerpt(r));
  }
  return {};
}

std::string Excerpt(std::string_view text, size_t max) {
  std::string out;
  size_t n = std::min(text.size(), max);
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > max) out += "...";
  return out;
}

}  // namespace ictk
