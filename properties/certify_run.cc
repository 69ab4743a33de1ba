/// \file
/// The certification run (certify_run.h).
#include "properties/certify_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "adapters/session.h"
#include "codec/json_text.h"
#include "codec/protocol.h"
#include "fixtures/fixture_file.h"
#include "fixtures/replay.h"
#include "model/judge/rule_catalogue.h"
#include "properties/certify_resume.h"
#include "properties/clock_internal.h"
#include "properties/fixture.h"
#include "properties/run_files.h"
#include "properties/runner.h"
#include "reports/digest.h"
#include "reports/stream.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;
using internal::Clock;
using internal::MillisSince;
using json = nlohmann::json;

/// The index the corpus's records are numbered from (before every random case).
constexpr int64_t kCorpusFirstIndex = -1'000'000;

/// Finished random cases, handed from the jobs to the writer in index order.
struct CaseQueue {
  /// Finished cases wait here until the cases before them are written (a few: jobs take
  /// cases in order), keyed by their position in the run's case list.
  std::map<size_t, CaseResult> done;
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
};

/// Where the corpus may be cut into separate ReplayFixtures calls without changing a
/// record (ReplayFixtures renames a fixture's table when an earlier fixture of the same
/// call used it): before fixture i when no fixture from i on names a table that one
/// before i names. The ends of the pieces, ascending, the last `fixtures.size()`.
std::vector<size_t> CorpusPieceEnds(const std::vector<Fixture>& fixtures) {
  std::vector<std::vector<std::string>> tables(fixtures.size());
  std::map<std::string, size_t> last;  // table -> the last fixture naming it
  for (size_t i = 0; i < fixtures.size(); ++i)
    for (const FixtureStep& st : fixtures[i].steps)
      if (st.request.contains("table") && st.request["table"].is_string()) {
        tables[i].push_back(st.request["table"].get<std::string>());
        last[tables[i].back()] = i;
      }
  std::vector<size_t> ends;
  size_t reach = 0;  // the last fixture naming a table of fixtures 0..i
  for (size_t i = 0; i < fixtures.size(); ++i) {
    for (const std::string& t : tables[i]) reach = std::max(reach, last[t]);
    if (reach <= i) ends.push_back(i + 1);
  }
  return ends;
}

class CertifyRun {
 public:
  explicit CertifyRun(const CertifyRunOptions& options)
      : o_(options), start_(Clock::now()) {}

  CertifyRunResult Run();

 private:
  void Note(const std::string& text) const {
    if (o_.note) o_.note(text);
  }
  /// One more case finished (or none, `add` 0): the `finished` callback.
  void Finished(int64_t add) {
    finished_ += add;
    if (o_.finished) o_.finished(finished_, cases_total_);
  }
  /// Opens and greets one session per job; false (noted) when one cannot start.
  bool OpenSessions();
  /// Which cases: all of 0..N-1, this shard's, or the one given with --case.
  void ChooseCases();
  void MakeHeader();
  CertifyOptions CaseOptions() const;
  /// --resume: the cases the killed run finished are kept, not run again.
  bool Resume();
  /// report.jsonl: appended to after a resumed prefix, or new with the header.
  bool OpenReport();
  /// The corpus first (docs/replay.md), on the first session before any job starts: one
  /// case per fixture, its ID the fixture's.
  bool ReplayCorpus();
  /// One corpus record: its failure's fixture, report.jsonl, the stream.
  void RecordCorpusCase(CaseRecord& c, const std::map<std::string, const Fixture*>& by_id);
  /// The jobs take cases in index order; this thread writes records in index order as
  /// they complete, so the report does not depend on the number of jobs.
  void RunCases();
  /// A failing corpus case: its fixture, as replayed, written into the run folder
  /// (FailedFixtureCopy), and the record's fixture, replay and reproduce pointing there.
  void WriteCorpusFailure(const Fixture& fixture, CaseRecord& record);
  /// One finished random case: same-cause linking, its fixture, its record.
  void WriteCase(CaseResult& r, std::map<std::string, const CaseRecord*>& first_of_cause,
                 std::deque<CaseRecord>& cause_heads);
  /// The expectation breaches, the compact report, the totals and the rendered reports.
  void Finish();
  /// --until-stable: whether `c` (a case in index order) exercised a clause, positively
  /// or negatively, for the first time in the run; counts the random cases in a row
  /// that did not, and sets `stable_` once they reach the option's N.
  void TrackCoverage(const CaseRecord& c);
  /// Every case of the stream as the expectation entries see it.
  std::vector<ExpectationCase> ExpectationCases() const {
    std::vector<ExpectationCase> out;
    out.reserve(stream_->ids().size());
    for (const std::string& id : stream_->ids()) {
      auto it = stream_->failed_under().find(id);
      out.push_back({id, it == stream_->failed_under().end() ? std::vector<std::string>{}
                                                             : it->second});
    }
    return out;
  }

  const CertifyRunOptions& o_;
  const Clock::time_point start_;
  CertifyRunResult result_;
  std::vector<std::unique_ptr<AdapterSession>> sessions_;
  std::vector<int64_t> indices_;
  std::optional<ReportStream> stream_;
  ResumeState resumed_;
  int64_t failing_ = 0;
  int64_t random_total_ = 0;  ///< the random cases of the run (resumed ones included)
  int64_t cases_total_ = 0;   ///< the corpus's fixtures and the random cases
  int64_t finished_ = 0;      ///< cases finished (resumed ones included)
  std::ofstream jsonl_;
  std::vector<FixtureFile> fixtures_;
  std::set<std::pair<std::string, bool>> covered_;  ///< (clause, negative) seen
  int64_t without_new_coverage_ = 0;  ///< random cases in a row that added none
  bool stable_ = false;               ///< --until-stable reached
};

void CertifyRun::TrackCoverage(const CaseRecord& c) {
  if (o_.until_stable <= 0) return;
  bool added = false;
  for (const auto& [clause, use] : c.clauses) {
    if (use.positive > 0) added = covered_.emplace(clause, false).second || added;
    if (use.negative > 0) added = covered_.emplace(clause, true).second || added;
  }
  if (c.index < 0) return;  // a corpus fixture: coverage, not a history
  without_new_coverage_ = added ? 0 : without_new_coverage_ + 1;
  if (without_new_coverage_ >= o_.until_stable) stable_ = true;
}

bool CertifyRun::OpenSessions() {
  const int jobs = std::max(1, o_.jobs);
  for (int j = 0; j < jobs; ++j) {
    Result<std::unique_ptr<Adapter>> adapter = o_.open_adapter();
    if (!adapter) {
      Note(adapter.error().message);
      return false;
    }
    auto session = std::make_unique<AdapterSession>(std::move(*adapter));
    Result<HelloInfo> hello = session->Handshake(o_.metadata_delta);
    if (!hello) {
      Note(fmt::format("{}: {}", o_.adapter_spec, hello.error().message));
      return false;
    }
    sessions_.push_back(std::move(session));
  }
  return true;
}

void CertifyRun::ChooseCases() {
  int64_t shard_i = 0, shard_n = 1;
  if (!o_.shard.empty())
    std::sscanf(o_.shard.c_str(), "%lld/%lld", reinterpret_cast<long long*>(&shard_i),
                reinterpret_cast<long long*>(&shard_n));
  if (o_.case_index) {
    indices_.push_back(*o_.case_index);
  } else {
    for (int64_t i = 0; i < o_.histories; ++i)
      if (i % shard_n == shard_i) indices_.push_back(i);
  }
  random_total_ = static_cast<int64_t>(indices_.size());
  cases_total_ = random_total_;
}

void CertifyRun::MakeHeader() {
  RunHeader& h = result_.report.header;
  h.ictk_version = o_.ictk_version;
  h.protocol_version = kProtocolVersion;
  h.model_version = ModelVersion(o_.switches);
  h.switches = SwitchValues(o_.switches);
  h.seed = o_.seed;
  h.command_line = o_.command_line;
  h.adapter = o_.adapter_spec;
  h.hello = sessions_[0]->hello_json();
  h.capabilities = sessions_[0]->capabilities().Names();
  h.histories = static_cast<int64_t>(indices_.size());
  h.until_stable = o_.until_stable;
  h.max_steps = o_.max_steps;
  h.shard = o_.shard;
  const Capabilities& declared = sessions_[0]->capabilities();
  h.profile = declared.ProfileName();
  h.writer = declared.writer;
  h.format_versions.assign(declared.format_versions.begin(), declared.format_versions.end());
  h.corpus = o_.corpus_dir;
  h.corpus_note = o_.corpus_note;
}

CertifyOptions CertifyRun::CaseOptions() const {
  CertifyOptions options;
  options.switches = o_.switches;
  options.gen.max_steps = o_.max_steps;
  if (!o_.weights.empty()) options.gen.weights.Parse(o_.weights);
  options.seed = o_.seed;
  options.shrink = o_.shrink;
  options.shrink_budget = o_.shrink_budget;
  options.adapter_spec = o_.adapter_spec;
  options.out_dir = o_.out_dir;
  options.reproduce_flags = o_.reproduce_flags;
  options.reproduce_prefix = o_.reproduce_prefix;
  options.tool = "ictk " + o_.ictk_version;
  options.model_version = result_.report.header.model_version;
  return options;
}

bool CertifyRun::Resume() {
  if (!o_.resume || o_.out_dir.empty()) return true;
  Result<ResumeState> state =
      LoadResumeState(o_.out_dir, result_.report.header, [&](CaseRecord&& c) {
        if (!stable_) TrackCoverage(c);
        if (!IsConformant(c.verdict)) {
          if (c.index >= 0) ++failing_;
          if (!result_.first_failing_index) result_.first_failing_index = c.index;
        }
        stream_->Add(std::move(c));
      });
  if (!state) {
    Note(state.error().message);
    return false;
  }
  resumed_ = std::move(*state);
  finished_ = static_cast<int64_t>(resumed_.done.size());
  std::erase_if(indices_, [&](int64_t i) { return resumed_.done.count(i) > 0; });
  if ((o_.fail_fast && result_.first_failing_index) || stable_)
    indices_.clear();  // the killed run had already failed, or was stable
  if (!o_.quiet)
    Note(fmt::format("resuming {}: {} case(s) done, {} to run", o_.out_dir,
                     resumed_.done.size(), indices_.size()));
  return true;
}

bool CertifyRun::OpenReport() {
  if (o_.out_dir.empty()) return true;
  if (resumed_.found) {
    std::string error;
    if (!ReopenReportForAppend(o_.out_dir, resumed_.keep_bytes, jsonl_, error)) {
      Note(error);
      return false;
    }
    return true;
  }
  std::error_code ec;
  fs::create_directories(o_.out_dir, ec);
  jsonl_.open(fs::path(o_.out_dir) / "report.jsonl", std::ios::binary | std::ios::trunc);
  if (!jsonl_) {
    Note(fmt::format("cannot write {}/report.jsonl", o_.out_dir));
    return false;
  }
  jsonl_ << DumpJson(ToJson(result_.report.header)) << "\n" << std::flush;
  return true;
}

bool CertifyRun::ReplayCorpus() {
  const std::string& dir = o_.corpus_dir;
  if (dir.empty()) {
    if (!o_.quiet) Note(fmt::format("no fixture corpus ({})", o_.corpus_note));
    Finished(0);
    return true;
  }
  Result<std::vector<Fixture>> corpus = ReadFixtures({dir});
  if (!corpus) {
    Note("--corpus: " + corpus.error().message);
    return false;
  }
  ReplayOptions ro;
  ro.switches = o_.switches;
  ro.switches.declared_format_versions = sessions_[0]->capabilities().format_versions;
  ro.adapter_spec = o_.adapter_spec;
  ro.expect = o_.expectations;
  ro.strict = o_.strict;
  // --resume: a corpus the killed run finished is not replayed again.
  const size_t corpus_size = corpus->size();
  cases_total_ = static_cast<int64_t>(corpus_size) + random_total_;
  Finished(0);
  std::vector<Fixture> remaining;
  if (!CorpusDone(resumed_, kCorpusFirstIndex, corpus_size)) remaining = std::move(*corpus);
  // Replayed piece by piece, for the progress after each (the records do not change).
  std::vector<std::vector<Fixture>> pieces;
  size_t from = 0;
  for (const size_t end : CorpusPieceEnds(remaining)) {
    pieces.emplace_back(std::make_move_iterator(remaining.begin() + from),
                        std::make_move_iterator(remaining.begin() + end));
    from = end;
  }
  std::map<std::string, const Fixture*> by_id;
  for (const std::vector<Fixture>& piece : pieces)
    for (const Fixture& f : piece) by_id.emplace(f.id, &f);
  const Clock::time_point corpus_start = Clock::now();
  int64_t index = kCorpusFirstIndex, failing = 0;
  for (const std::vector<Fixture>& piece : pieces) {
    for (CaseRecord& c : ReplayFixtures(*sessions_[0], piece, ro, index)) {
      if (resumed_.done.count(c.index) > 0) continue;  // kept from the killed run
      if (!IsConformant(c.verdict)) ++failing;
      RecordCorpusCase(c, by_id);
    }
    index += static_cast<int64_t>(piece.size());
    if (o_.corpus_progress)
      o_.corpus_progress(index - kCorpusFirstIndex, static_cast<int64_t>(remaining.size()),
                         failing, MillisSince(corpus_start));
  }
  if (!o_.quiet) Note(fmt::format("corpus {}: {} fixtures replayed", dir, corpus_size));
  if (o_.fail_fast && result_.first_failing_index) indices_.clear();
  return true;
}

void CertifyRun::RecordCorpusCase(CaseRecord& c,
                                  const std::map<std::string, const Fixture*>& by_id) {
  if (auto it = by_id.find(c.id); it != by_id.end() && c.failure && !IsConformant(c.verdict))
    WriteCorpusFailure(*it->second, c);
  if (!IsConformant(c.verdict) && !result_.first_failing_index)
    result_.first_failing_index = c.index;
  TrackCoverage(c);
  if (jsonl_.is_open()) jsonl_ << DumpJson(ToJson(c)) << "\n" << std::flush;
  stream_->Add(std::move(c));
  Finished(1);
}

void CertifyRun::WriteCorpusFailure(const Fixture& fixture, CaseRecord& record) {
  if (o_.out_dir.empty()) return;  // nothing is written: the failure names the corpus file
  const json copy = FailedFixtureCopy(fixture, record, o_.adapter_spec);
  const std::string path = CaseOptions().failures_dir + "/" + FixtureRelativePath(copy);
  std::string error;
  if (!WriteFile(fs::path(o_.out_dir) / path, DumpJson(copy, 2) + "\n", error)) {
    Note(error);
    return;
  }
  FailureDetail& f = *record.failure;
  f.fixture = path;
  f.fixture_id = copy.value("id", "");
  const std::string shown = (fs::path(o_.out_dir) / path).string();
  f.replay = fmt::format("ictk replay --adapter {} {}", ShellQuote(o_.adapter_spec),
                         ShellQuote(shown));
  f.reproduce = fmt::format("{} replay --adapter {}{}{} {}", o_.reproduce_prefix,
                            ShellQuote(o_.adapter_spec), o_.replay_flags.empty() ? "" : " ",
                            o_.replay_flags,
                            ShellQuote(fs::absolute(shown).lexically_normal().string()));
}

void CertifyRun::WriteCase(CaseResult& r,
                           std::map<std::string, const CaseRecord*>& first_of_cause,
                           std::deque<CaseRecord>& cause_heads) {
  if (!IsConformant(r.record.verdict)) {
    ++failing_;
    if (!result_.first_failing_index) {
      result_.first_failing_index = r.record.index;
      result_.first_failure_ms = MillisSince(start_);
    }
  }
  if (r.record.failure && !IsConformant(r.record.verdict)) {
    const std::string cause = CauseOf(r.record);
    auto it = first_of_cause.find(cause);
    if (it != first_of_cause.end()) {
      FailureDetail& f = *r.record.failure;
      const CaseRecord& head = *it->second;
      f.same_cause_as = head.id;
      if (head.failure) {
        f.fixture = head.failure->fixture;
        f.fixture_id = head.failure->fixture_id;
        f.replay = head.failure->replay;
      }
      r.fixture.reset();
    } else {
      cause_heads.push_back(r.record);
      first_of_cause.emplace(cause, &cause_heads.back());
    }
  }
  // The fixture first, then the record: a record in report.jsonl means its fixture file
  // is on disk, even if the run is killed next (--resume keeps both).
  if (r.fixture && !o_.out_dir.empty()) {
    std::string error;
    if (!WriteFile(fs::path(o_.out_dir) / r.fixture->path,
                   DumpJson(r.fixture->content, 2) + "\n", error))
      Note(error);
  }
  // The expectation file's entry for a random case (xfail / skip), unless --strict.
  if (o_.expectations && !o_.strict)
    if (const ExpectationEntry* e = FindExpectationFor(*o_.expectations, r.record))
      ApplyExpectation(r.record, *e);
  TrackCoverage(r.record);
  if (jsonl_.is_open()) jsonl_ << DumpJson(ToJson(r.record)) << "\n" << std::flush;
  if (r.fixture) fixtures_.push_back(std::move(*r.fixture));
  stream_->Add(std::move(r.record));
  Finished(1);
}

void CertifyRun::RunCases() {
  const CertifyOptions options = CaseOptions();
  CaseQueue q;
  std::vector<std::thread> threads;
  for (size_t j = 0; j < sessions_.size(); ++j) {
    threads.emplace_back([&, j] {
      for (;;) {
        if (q.stop.load()) return;
        const size_t k = q.next.fetch_add(1);
        if (k >= indices_.size()) return;
        CaseResult r = CertifyCase(*sessions_[j], indices_[k], options);
        {
          std::lock_guard<std::mutex> lock(q.mu);
          if (o_.fail_fast && !IsConformant(r.record.verdict)) q.stop.store(true);
          q.done.emplace(k, std::move(r));
        }
        q.cv.notify_all();
      }
    });
  }
  // One fixture per cause of failure: a later case failing for the same cause as an
  // earlier one (resumed or corpus cases included) points at that case's fixture.
  std::map<std::string, const CaseRecord*> first_of_cause;
  // Copies (the stream's failures grow below); a deque keeps the pointers valid.
  std::deque<CaseRecord> earlier_failures(stream_->failures().begin(),
                                          stream_->failures().end());
  for (const CaseRecord& c : earlier_failures) first_of_cause.emplace(CauseOf(c), &c);
  std::deque<CaseRecord> cause_heads;  // the first case of each new cause
  const auto total = static_cast<int64_t>(indices_.size());
  for (size_t k = 0; k < indices_.size(); ++k) {
    std::unique_lock<std::mutex> lock(q.mu);
    q.cv.wait(lock, [&] { return q.done.count(k) > 0; });
    auto node = q.done.extract(k);
    lock.unlock();
    WriteCase(node.mapped(), first_of_cause, cause_heads);
    if (o_.progress)
      o_.progress(static_cast<int64_t>(k + 1), total, failing_, MillisSince(start_));
    if (o_.fail_fast && failing_ > 0) break;
    if (stable_) {
      if (!o_.quiet)
        Note(fmt::format("--until-stable {}: stopped after {} histories, the last {} added "
                         "no coverage",
                         o_.until_stable, indices_[k] + 1, o_.until_stable));
      break;
    }
  }
  q.stop.store(true);
  for (std::thread& t : threads) t.join();
}

void CertifyRun::Finish() {
  for (const auto& s : sessions_) result_.adapter_micros += s->adapter_micros();
  const double total_ms = MillisSince(start_);
  result_.harness_micros = static_cast<int64_t>(total_ms * 1000) -
                           result_.adapter_micros / static_cast<int64_t>(sessions_.size());
  if (o_.expectations && !o_.strict)
    for (CaseRecord& c : ExpectationBreachRecords(*o_.expectations, ExpectationCases())) {
      Note(c.reason);
      if (jsonl_.is_open()) jsonl_ << DumpJson(ToJson(c)) << "\n" << std::flush;
      stream_->Add(std::move(c));
    }
  // The compact report: the header, the non-conformant cases and the totals of all.
  result_.report = stream_->Compact(total_ms);
  const Report& report = result_.report;
  // The distribution of every case (expectation breaches have no requests).
  for (const auto& [op, n] : report.totals->ops) result_.distribution.ops[op] += n;
  for (const auto& [tag, n] : report.totals->tags)
    if (std::optional<RuleId> r = ParseRuleId(tag)) result_.distribution.tags[*r] += n;
  result_.distribution.steps += report.totals->steps;
  result_.exit_code = report.totals->conformant ? 0 : 1;
  if (o_.out_dir.empty()) return;
  jsonl_ << DumpJson(ToJson(*report.totals)) << "\n" << std::flush;
  jsonl_.close();
  std::string error;
  const fs::path dir(o_.out_dir);
  bool ok = WriteRenderedReports(dir, report, error, &*stream_);
  for (const FixtureFile& f : fixtures_)
    ok = ok && WriteFile(dir / f.path, DumpJson(f.content, 2) + "\n", error);
  if (!ok) {
    Note(error);
    result_.exit_code = 2;
  }
}

CertifyRunResult CertifyRun::Run() {
  if (!OpenSessions()) {
    result_.exit_code = 2;
    return std::move(result_);
  }
  ChooseCases();
  MakeHeader();
  // The report streams (reports/stream.h): each record goes to report.jsonl as it is
  // final, and the run keeps the totals and the non-conformant cases only.
  stream_.emplace(result_.report.header);
  stream_->KeepIds(o_.expectations && !o_.strict);
  if (!Resume() || !OpenReport() || !ReplayCorpus()) {
    result_.exit_code = 2;
    return std::move(result_);
  }
  RunCases();
  Finish();
  return std::move(result_);
}

}  // namespace

CertifyRunResult RunCertification(const CertifyRunOptions& options) {
  return CertifyRun(options).Run();
}

}  // namespace ictk
