/// \file
/// The failing history read for its picture (history_svg.h; not installed): what each
/// step answered, the constraints seen, the rows each commit adds, removes and modifies
/// and the keys that collide, the main line and the transactions forked from it.
/// history_scan.cc reads it, history_svg.cc draws it.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reports/report.h"

namespace ictk::history_internal {

struct Constraint {
  int64_t id = 0;
  std::string name, type;
  std::vector<int64_t> field_ids;
  bool enforced = false;
};

/// What one column shows.
struct Column {
  const StepRow* step = nullptr;
  bool ok = false;
  std::string result;               ///< "ok", "rejected (kind)", ...
  std::optional<int64_t> snapshot;  ///< a snapshot this step put on the main line
  std::optional<int64_t> parent;
  bool staged = false;  ///< a commit naming a transaction
  bool finish = false;
  std::string txn;
  std::map<int64_t, std::string> statuses;  ///< constraint ID -> answered status
  std::map<std::string, std::set<std::string>> allowed;  ///< name -> allowed statuses
  std::vector<std::string> added, removed, modified;
  std::set<std::string> colliding;  ///< keys of this step that collide
  std::string collision;            ///< "r3 ~ r1 on pk"
};

/// Reads the steps of a failing history into columns: what each step answered, the
/// constraints seen, the committed and staged rows (to find key collisions), the main
/// line and the transactions forked from it.
class HistoryScan {
 public:
  void Step(const StepRow& s);

  std::vector<Column> cols;
  std::map<int64_t, Constraint> constraints;              // every constraint seen
  std::map<std::string, std::optional<int64_t>> base_of;  // txn -> base snapshot
  std::map<std::string, size_t> staged_col;  // txn -> column of its staged commit
  std::map<std::string, size_t> begin_col;

 private:
  void ReadConstraints(const nlohmann::json& md);
  void RowChanges(Column& c, const nlohmann::json& rq, const std::string& op);
  void FindCollisions(Column& c, const std::map<std::string, nlohmann::json>& table,
                      const std::map<std::string, nlohmann::json>& incoming) const;

  std::map<std::string, nlohmann::json> live_;  // key -> values (committed)
  // txn -> its table
  std::map<std::string, std::map<std::string, nlohmann::json>> staged_rows_;
  std::optional<int64_t> current_;                       // the current snapshot
  std::map<std::string, nlohmann::json> staged_commit_;  // txn -> the staged request
};

}  // namespace ictk::history_internal
