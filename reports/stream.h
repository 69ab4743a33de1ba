/// \file
/// A report kept as it is written (docs/robustness.md "Long runs"), so that the memory of
/// a long certification does not grow with its passing cases. certify hands each case
/// record to a ReportStream once it is final (report.jsonl has it on disk by then). The
/// stream folds it into the totals (TotalsBuilder), keeps it whole only when it is not
/// conformant (failures are few, and every summary shows each of them), and spools the
/// `<testcase>` element of a conformant case to an anonymous temporary file for junit.xml.
///
/// The compact report (the header, the non-conformant cases, the totals of every case)
/// renders summary.md, report.html and badge.json exactly as the whole report does: they
/// show the totals and the non-conformant cases only. WriteJunit writes junit.xml byte for
/// byte as RenderJunitXml of the whole report (tests/reports/stream_test.cc).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "reports/report.h"

namespace ictk {

class ReportStream {
 public:
  explicit ReportStream(RunHeader header);
  ~ReportStream();
  ReportStream(const ReportStream&) = delete;
  ReportStream& operator=(const ReportStream&) = delete;

  /// With `keep`, the ID of every case is kept too (an expectation file is judged over
  /// every case ID at the end of the run).
  void KeepIds(bool keep) { keep_ids_ = keep; }

  /// Adds the next case of the report.
  void Add(CaseRecord record);

  const RunHeader& header() const { return header_; }
  /// The non-conformant cases added, in the order added.
  const std::vector<CaseRecord>& failures() const { return failures_; }
  /// Every case ID added, in order (only with KeepIds(true)).
  const std::vector<std::string>& ids() const { return ids_; }
  /// Of those, the cases that failed (or were xfailed), each with the rules it failed
  /// under (RulesFailedUnder; only with KeepIds(true)).
  const std::map<std::string, std::vector<std::string>>& failed_under() const {
    return failed_under_;
  }
  int64_t cases() const { return cases_; }

  /// The header, the non-conformant cases and the totals of every case added (their
  /// `duration_ms` the run's).
  Report Compact(double duration_ms) const;

  /// junit.xml of every case added, given `compact` = Compact(...); false with `error`
  /// set when it cannot be written.
  bool WriteJunit(const std::filesystem::path& path, const Report& compact,
                  std::string& error);

 private:
  void Spool(const std::string& text);

  RunHeader header_;
  TotalsBuilder totals_;
  std::vector<CaseRecord> failures_;
  /// Where each failure's `<testcase>` goes: the spool's length when it was added.
  std::vector<int64_t> failure_at_;
  std::vector<std::string> ids_;
  std::map<std::string, std::vector<std::string>> failed_under_;
  bool keep_ids_ = false;
  int64_t cases_ = 0;
  std::FILE* spool_ = nullptr;  ///< tmpfile(); nullptr until the first case
  bool spool_in_memory_ = false;  ///< no temporary file could be made: `memory_` holds it
  std::string memory_;
  int64_t spooled_ = 0;  ///< bytes spooled
};

}  // namespace ictk
