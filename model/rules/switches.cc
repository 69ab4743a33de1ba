/// \file
/// The interpretation switches (SPEC.md "Interpretation switches", and the ones
/// docs/interpretations.md adds): their names, values (default first), kind, and the text
/// form used on the command line (`--switch name=value`) and in reports.
#include "model/rules/switches.h"

#include <fmt/format.h>

namespace ictk {
namespace {

/// One switch: its description and how to read and write it in a Switches value. The
/// values are indices into `SwitchInfo::values`, so the text forms live in one place.
struct SwitchDef {
  SwitchInfo info;
  size_t (*get)(const Switches&);
  void (*set)(Switches&, size_t);
};

size_t Bool(bool b, bool default_value) { return b == default_value ? 0 : 1; }

/// The first six switches, in the order AllSwitches lists them.
std::vector<SwitchDef> FirstDefs() {
  return {
      {{"modified-counts-as-added",
        {"true", "false"},
        "proposed change",
        "enf.modified-row: \"a row whose values changed in a commit counts as a removed "
        "row "
        "and an added row\"; false: only brand-new rows count as added"},
       [](const Switches& s) { return Bool(s.modified_counts_as_added, true); },
       [](Switches& s, size_t v) { s.modified_counts_as_added = v == 0; }},
      {{"stale-ids-in-new-snapshot",
        {"reject", "allow"},
        "reading",
        "st.exactly-one-list: a writer lists only constraints that exist when the "
        "snapshot "
        "is created (reject), or extra IDs are tolerated (allow)"},
       [](const Switches& s) { return static_cast<size_t>(s.stale_ids_in_new_snapshot); },
       [](Switches& s, size_t v) {
         s.stale_ids_in_new_snapshot = static_cast<StaleIds>(v);
       }},
      {{"compaction-counts-as-added",
        {"false", "true"},
        "proposed change",
        "st.no-add-carry: a `replace` that moves rows adds none (\"for example a delete "
        "or a "
        "compaction operation\"); true: a compaction counts as adding its rows"},
       [](const Switches& s) { return Bool(s.compaction_counts_as_added, false); },
       [](Switches& s, size_t v) { s.compaction_counts_as_added = v == 1; }},
      {{"key-promotions",
        {"format-version", "none"},
        "proposed change",
        "sch.key-promotion-ok: key fields may take the promotions of the table's format "
        "version; none: no promotion of key fields"},
       [](const Switches& s) { return static_cast<size_t>(s.key_promotions); },
       [](Switches& s, size_t v) { s.key_promotions = static_cast<KeyPromotions>(v); }},
      {{"status-carry",
        {"may", "must"},
        "reading",
        "st.no-add-carry: a commit that adds no rows \"may carry over\" the parent's "
        "status (may), or must where the carried status is derivable (must: "
        "`unvalidated` is then "
        "not allowed)"},
       [](const Switches& s) { return static_cast<size_t>(s.status_carry); },
       [](Switches& s, size_t v) { s.status_carry = static_cast<StatusCarry>(v); }},
      {{"existing-rows-on-enforce",
        {"either", "reject", "accept"},
        "reading",
        "enf.enforced: adding or enforcing a constraint that live rows already violate "
        "may be accepted or rejected (either), must be rejected (reject) or accepted "
        "(accept)"},
       [](const Switches& s) { return static_cast<size_t>(s.existing_rows_on_enforce); },
       [](Switches& s, size_t v) {
         s.existing_rows_on_enforce = static_cast<ExistingRowsOnEnforce>(v);
       }},
  };
}

/// The other six switches, after FirstDefs.
std::vector<SwitchDef> LaterDefs() {
  return {
      {{"unenforced-may-reject",
        {"false", "true"},
        "reading",
        "enf.not-enforced: a constraint that is not enforced never makes a commit fail "
        "(false), or a writer may reject rows that break it (true)"},
       [](const Switches& s) { return Bool(s.unenforced_may_reject, false); },
       [](Switches& s, size_t v) { s.unenforced_may_reject = v == 1; }},
      {{"v3-constraint-fields",
        {"either", "reject"},
        "reading",
        "def.v4-only: a reader given v1-v3 metadata carrying constraint fields may "
        "reject or "
        "ignore them (either), or must reject (reject)"},
       [](const Switches& s) { return static_cast<size_t>(s.v3_constraint_fields); },
       [](Switches& s, size_t v) {
         s.v3_constraint_fields = static_cast<V3ConstraintFields>(v);
       }},
      {{"name-case",
        {"sensitive", "insensitive"},
        "reading",
        "def.name-unique: constraint names compare case-sensitively (sensitive) or "
        "ignoring ASCII case (insensitive)"},
       [](const Switches& s) { return static_cast<size_t>(s.name_case); },
       [](Switches& s, size_t v) { s.name_case = static_cast<NameCase>(v); }},
      {{"udf-check-carries-invalid",
        {"false", "true"},
        "reading",
        "expr.udf-status vs st.invalid: a check that calls a UDF never keeps the "
        "parent's status, not even `invalid` (false), or keeps `invalid` when no row "
        "was removed "
        "(true)"},
       [](const Switches& s) { return Bool(s.udf_check_carries_invalid, false); },
       [](Switches& s, size_t v) { s.udf_check_carries_invalid = v == 1; }},
      {{"restated-definition",
        {"either", "reject", "accept"},
        "reading",
        "upd.definition-immutable: an update that restates the current `expression`, "
        "`field-ids` (same set) or `type` may be accepted or rejected (either), must be "
        "rejected (reject) or accepted (accept)"},
       [](const Switches& s) { return static_cast<size_t>(s.restated_definition); },
       [](Switches& s, size_t v) {
         s.restated_definition = static_cast<RestatedDefinition>(v);
       }},
      {{"invalid-metadata-on-read",
        {"either", "reject"},
        "reading",
        "def.*, key.*, id.* on the reader side: a reader given v4 metadata that breaks a "
        "definition, key or ID rule (two primary keys, two constraints with one ID, a key "
        "on a float field, ...) may accept or refuse it with invalid-metadata (either), or "
        "must refuse it (reject)"},
       [](const Switches& s) { return static_cast<size_t>(s.invalid_metadata_on_read); },
       [](Switches& s, size_t v) {
         s.invalid_metadata_on_read = static_cast<InvalidMetadataOnRead>(v);
       }},
  };
}

const std::vector<SwitchDef>& Defs() {
  static const std::vector<SwitchDef> defs = [] {
    std::vector<SwitchDef> out = FirstDefs();
    for (SwitchDef& d : LaterDefs()) out.push_back(std::move(d));
    return out;
  }();
  return defs;
}

}  // namespace

const std::vector<SwitchInfo>& AllSwitches() {
  static const std::vector<SwitchInfo> infos = [] {
    std::vector<SwitchInfo> out;
    for (const SwitchDef& d : Defs()) out.push_back(d.info);
    return out;
  }();
  return infos;
}

std::string SetSwitch(Switches& switches, std::string_view name, std::string_view value) {
  for (const SwitchDef& d : Defs()) {
    if (d.info.name != name) continue;
    for (size_t i = 0; i < d.info.values.size(); ++i) {
      if (d.info.values[i] == value) {
        d.set(switches, i);
        return {};
      }
    }
    std::string allowed;
    for (std::string_view v : d.info.values) {
      if (!allowed.empty()) allowed += "|";
      allowed += v;
    }
    return fmt::format("switch {}: value '{}' is not one of {}", name, value, allowed);
  }
  std::string names;
  for (const SwitchDef& d : Defs()) {
    if (!names.empty()) names += ", ";
    names += d.info.name;
  }
  return fmt::format("unknown switch '{}' (known: {})", name, names);
}

std::map<std::string, std::string> SwitchValues(const Switches& switches) {
  std::map<std::string, std::string> out;
  for (const SwitchDef& d : Defs()) {
    out[std::string(d.info.name)] = std::string(d.info.values.at(d.get(switches)));
  }
  return out;
}

}  // namespace ictk
