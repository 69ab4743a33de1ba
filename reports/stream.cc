/// \file
/// The streamed report (stream.h).
#include "reports/stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <utility>

#include "reports/render.h"

namespace ictk {

ReportStream::ReportStream(RunHeader header) : header_(std::move(header)) {}

ReportStream::~ReportStream() {
  if (spool_ != nullptr) std::fclose(spool_);
}

void ReportStream::Spool(const std::string& text) {
  if (spool_ == nullptr && !spool_in_memory_) {
    spool_ = std::tmpfile();
    if (spool_ == nullptr) spool_in_memory_ = true;
  }
  if (spool_ != nullptr &&
      std::fwrite(text.data(), 1, text.size(), spool_) != text.size()) {
    // A full disk: what was spooled is moved to memory, and the rest stays there.
    memory_.resize(static_cast<size_t>(spooled_));
    std::fflush(spool_);
    std::rewind(spool_);
    const size_t got = std::fread(memory_.data(), 1, memory_.size(), spool_);
    memory_.resize(got);
    std::fclose(spool_);
    spool_ = nullptr;
    spool_in_memory_ = true;
    spooled_ = static_cast<int64_t>(memory_.size());
  }
  if (spool_in_memory_) memory_ += text;
  spooled_ += static_cast<int64_t>(text.size());
}

void ReportStream::Add(CaseRecord record) {
  ++cases_;
  totals_.Add(record);
  if (keep_ids_) {
    ids_.push_back(record.id);
    if (std::vector<std::string> rules = RulesFailedUnder(record); !rules.empty())
      failed_under_[record.id] = std::move(rules);
  }
  if (IsConformant(record.verdict)) {
    // A conformant case's element does not depend on the failure causes.
    Spool(JunitCaseXml(header_, record, ""));
    return;
  }
  failure_at_.push_back(spooled_);
  failures_.push_back(std::move(record));
}

Report ReportStream::Compact(double duration_ms) const {
  Report r;
  r.header = header_;
  r.cases = failures_;
  r.totals = totals_.Finish(header_, duration_ms);
  return r;
}

bool ReportStream::WriteJunit(const std::filesystem::path& path, const Report& compact,
                              std::string& error) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const Totals totals =
      compact.totals ? *compact.totals : totals_.Finish(header_, 0);
  out << JunitHeadXml(header_, totals);
  const std::map<std::string, std::string> notes =
      JunitCauseNotes(FailureCauses(failures_));
  if (spool_ != nullptr) {
    std::fflush(spool_);
    std::rewind(spool_);
  }
  // The spool, with each failure's element at the place it was added.
  int64_t copied = 0;
  std::string buffer;
  auto copy_to = [&](int64_t until) {
    if (spool_in_memory_) {
      out.write(memory_.data() + copied, until - copied);
      copied = until;
      return;
    }
    while (spool_ != nullptr && copied < until) {
      buffer.resize(static_cast<size_t>(std::min<int64_t>(until - copied, 1 << 16)));
      const size_t got = std::fread(buffer.data(), 1, buffer.size(), spool_);
      if (got == 0) break;
      out.write(buffer.data(), static_cast<std::streamsize>(got));
      copied += static_cast<int64_t>(got);
    }
  };
  for (size_t k = 0; k < failures_.size(); ++k) {
    copy_to(failure_at_[k]);
    auto it = notes.find(failures_[k].id);
    out << JunitCaseXml(header_, failures_[k], it == notes.end() ? "" : it->second);
  }
  copy_to(spooled_);
  out << JunitTailXml();
  out.close();
  if (!out || copied != spooled_) {
    error = fmt::format("cannot write {}", path.string());
    return false;
  }
  return true;
}

}  // namespace ictk
