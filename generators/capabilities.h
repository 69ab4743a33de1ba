/// \file
/// The adapter capabilities of the protocol (ARCHITECTURE.md "Capabilities") as a value:
/// generators only make requests an implementation declared it supports, and a report
/// says which rules were left untested because a capability was missing.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/iceberg/expression.h"

namespace ictk {

struct Capabilities {
  bool check = true;
  bool unique = true;
  bool primary_key = true;
  bool nested_keys = true;
  bool upgrade = true;
  bool schema_evolution = true;
  bool modify_rows = true;
  bool concurrent_commits = true;
  bool validate = true;
  bool udf = true;
  bool transforms = true;
  bool reader = true;
  bool parse_metadata = true;
  /// The format versions the implementation supports.
  std::set<int32_t> format_versions = {1, 2, 3, 4};
  /// Whether the implementation writes (`hello`'s `profile` is "writer" or absent). A
  /// reader-profile implementation is sent only `hello`, `parse-metadata` and
  /// `read-statuses` (docs/protocol.md section 9, "Profiles").
  bool writer = true;
  /// `hello`'s `constraint-ops` (docs/protocol.md section 9, "Finer declarations"):
  /// nullopt, every constraint op of a declared constraint type.
  std::optional<std::set<std::string>> constraint_ops;
  /// `hello`'s `expression-operators`: nullopt, every check predicate.
  std::optional<std::set<std::string>> expression_operators;

  bool operator==(const Capabilities&) const = default;

  /// Every capability and format versions 1-4.
  static Capabilities All() { return Capabilities{}; }
  /// From `hello`'s `capabilities`, `format-versions` and `profile` ("writer" or
  /// "reader"; absent means "writer"); unknown capability names are ignored.
  static Capabilities FromHello(const std::vector<std::string>& names,
                                const std::vector<int32_t>& format_versions,
                                std::string_view profile = "writer");
  /// The profile in words: "v4 writer", "v1–v3 reader", "v1–v4 reader", ...
  /// (docs/protocol.md section 9).
  std::string ProfileName() const;
  /// The protocol names of the capabilities that are set, in protocol order.
  std::vector<std::string> Names() const;
  /// Whether the capability with protocol name `name` is set (false for unknown names).
  bool Has(std::string_view name) const;
  /// Whether some constraint type is declared at format version 4.
  bool ConstraintsDeclared() const;
  /// Whether constraint op `op` ("add-constraint", ...) may be sent: a constraint type is
  /// declared at v4 and `constraint-ops` is absent or lists it.
  bool SendsConstraintOp(std::string_view op) const;
  /// Whether every predicate operator of `e` is declared (always, without
  /// `expression-operators`).
  bool DeclaresOperators(const Expr& e) const;

};

/// Every capability name of the protocol, in protocol order.
const std::vector<std::string_view>& AllCapabilityNames();

}  // namespace ictk
