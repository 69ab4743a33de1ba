/// \file
/// The entry functions of the fuzz targets (fuzz/*_fuzz.cc, docs/robustness.md): each
/// takes arbitrary bytes, runs them through one parser of the kit the way the kit itself
/// does, and checks what must hold for every input: no crash, no exception out of the
/// codec, and decode(encode(decode(x))) == decode(x) when x decodes. A broken invariant
/// aborts (FuzzCheck), which libFuzzer reports as a crash. Header-only, so that the
/// regression replay (tests/regressions/regression_replay_test.cc) feeds the same
/// functions in an ordinary build.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/envelope.h"
#include "codec/json_expression.h"
#include "codec/json_schema.h"
#include "codec/json_table_metadata.h"
#include "codec/decode_memo.h"
#include "codec/json_text.h"
#include "codec/json_type.h"
#include "codec/json_value.h"
#include "codec/metadata_delta.h"
#include "codec/protocol.h"
#include "model/rules/iceberg_rules.h"
#include "model/rules/metadata_rules.h"
#include "model/rules/switches.h"

#if __has_include("fixtures/fixture_file.h")
#include "fixtures/fixture_file.h"
#define ICTK_FUZZ_HAVE_FIXTURE_DECODER 1
#endif
#if __has_include("fixtures/expectation_file.h")
#include "fixtures/expectation_file.h"
#define ICTK_FUZZ_HAVE_EXPECTATION_FILE 1
#endif
#if __has_include("generators/capabilities.h")
#include "generators/capabilities.h"
#define ICTK_FUZZ_HAVE_CAPABILITIES 1
#endif
#if __has_include("reports/report.h")
#include "reports/report.h"
#define ICTK_FUZZ_HAVE_REPORTS 1
#endif
#if __has_include("review/spec_text.h")
#include "review/spec_text.h"
#define ICTK_FUZZ_HAVE_SPEC_TEXT 1
#endif

namespace ictk::fuzz {

/// Aborts with `what` when `ok` is false: a broken invariant is a finding.
inline void FuzzCheck(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "ictk fuzz: invariant broken: %s\n", what);
  std::abort();
}

/// The bytes as text (JSON parsing takes any bytes; invalid UTF-8 is its error).
inline std::string_view AsText(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

/// Parses and returns the document, or nullopt (a parse error is a correct answer).
/// Every parse error must name the source and a position.
inline std::optional<nlohmann::json> ParseOrNull(std::string_view text) {
  Result<nlohmann::json> j = ParseJsonText(text, "input");
  if (!j) {
    FuzzCheck(j.error().kind == ErrorKind::kParse, "parse errors are kParse");
    FuzzCheck(j.error().message.rfind("input", 0) == 0, "parse errors name the source");
    return std::nullopt;
  }
  return std::move(*j);
}

/// Equality by the compact text (NaN-safe, unlike comparing decoded doubles).
inline bool SameJson(const nlohmann::json& a, const nlohmann::json& b) {
  return DumpJson(a) == DumpJson(b);
}

/// Every decoder error names a JSON pointer or a file position in its message and is of
/// a known kind; a message is never empty.
inline void CheckError(const Error& error) {
  FuzzCheck(!error.message.empty(), "error messages are not empty");
  FuzzCheck(error.kind == ErrorKind::kParse || error.kind == ErrorKind::kInvalid,
            "decoder errors are kParse or kInvalid");
}

/// Table metadata as `ictk lint-metadata` reads it (a REST LoadTable response too), then
/// every metadata rule, then the round trip.
inline int FuzzTableMetadata(const uint8_t* data, size_t size) {
  std::optional<nlohmann::json> j = ParseOrNull(AsText(data, size));
  if (!j) return 0;
  const bool rest =
      j->is_object() && !j->contains("format-version") && j->contains("metadata");
  Result<TableMetadata> m = rest ? TableMetadataFromJson((*j)["metadata"], "/metadata")
                                 : TableMetadataFromJson(*j, "");
  if (!m) {
    CheckError(m.error());
    return 0;
  }
  (void)LintMetadata(*m, FunctionCatalog{}, Switches{});
  const nlohmann::json encoded = TableMetadataToJson(*m);
  Result<TableMetadata> again = TableMetadataFromJson(encoded, "");
  FuzzCheck(again.has_value(), "encoded table metadata decodes");
  FuzzCheck(SameJson(TableMetadataToJson(*again), encoded), "table metadata round-trips");
  // The text form too: what certify writes is what it reads back.
  std::optional<nlohmann::json> reparsed = ParseOrNull(DumpJson(encoded));
  FuzzCheck(reparsed.has_value() && *reparsed == encoded, "dumped metadata reparses");
  return 0;
}

/// A schema, then the schema rules of every format version, then the round trip.
inline int FuzzSchema(const uint8_t* data, size_t size) {
  std::optional<nlohmann::json> j = ParseOrNull(AsText(data, size));
  if (!j) return 0;
  Result<Schema> s = SchemaFromJson(*j, "");
  if (!s) {
    CheckError(s.error());
    return 0;
  }
  for (std::optional<int> v :
       {std::optional<int>(), std::optional<int>(1), std::optional<int>(2),
        std::optional<int>(3), std::optional<int>(4)}) {
    (void)CheckIcebergSchema(*s, v);
  }
  Result<Schema> again = SchemaFromJson(SchemaToJson(*s), "");
  FuzzCheck(again.has_value(), "encoded schema decodes");
  FuzzCheck(SameJson(SchemaToJson(*again), SchemaToJson(*s)), "schema round-trips");
  return 0;
}

/// A check expression (ID form and the older forms), and the same JSON as a term.
inline int FuzzExpression(const uint8_t* data, size_t size) {
  std::optional<nlohmann::json> j = ParseOrNull(AsText(data, size));
  if (!j) return 0;
  Result<Expr> e = ExpressionFromJson(*j, "");
  if (e) {
    Result<Expr> again = ExpressionFromJson(ExpressionToJson(*e), "");
    FuzzCheck(again.has_value(), "encoded expression decodes");
    FuzzCheck(SameJson(ExpressionToJson(*again), ExpressionToJson(*e)),
              "expression round-trips");
  } else {
    CheckError(e.error());
  }
  Result<Expr> t = TermFromJson(*j, "");
  if (t) {
    Result<Expr> again = TermFromJson(TermToJson(*t), "");
    FuzzCheck(again.has_value(), "encoded term decodes");
  } else {
    CheckError(t.error());
  }
  return 0;
}

/// `{"type": T, "value": V}`: V decoded by the type T (both UTC-offset readings), and V
/// untyped; typed values round-trip.
inline int FuzzValue(const uint8_t* data, size_t size) {
  std::optional<nlohmann::json> j = ParseOrNull(AsText(data, size));
  if (!j) return 0;
  const nlohmann::json value =
      j->is_object() && j->contains("value") ? (*j)["value"] : *j;
  Result<Value> untyped = UntypedValueFromJson(value, "");
  if (untyped) {
    Result<Value> again = UntypedValueFromJson(UntypedValueToJson(*untyped), "");
    FuzzCheck(again.has_value(), "encoded untyped value decodes");
  } else {
    CheckError(untyped.error());
  }
  if (!j->is_object() || !j->contains("type")) return 0;
  Result<Type> type = TypeFromJson((*j)["type"], "/type");
  if (!type) {
    CheckError(type.error());
    return 0;
  }
  Result<Type> type_again = TypeFromJson(TypeToJson(*type), "");
  FuzzCheck(type_again.has_value() && *type_again == *type, "type round-trips");
  for (bool utc : {false, true}) {
    ValueDecodeOptions options;
    options.require_utc_offset = utc;
    Result<Value> v = ValueFromJson(value, *type, "/value", options);
    if (!v) {
      CheckError(v.error());
      continue;
    }
    Result<Value> again = ValueFromJson(ValueToJson(*v, *type), *type, "", options);
    FuzzCheck(again.has_value(), "encoded value decodes");
    FuzzCheck(SameJson(ValueToJson(*again, *type), ValueToJson(*v, *type)),
              "value round-trips");
  }
  return 0;
}

/// One response line as the exec transport and the properties layer read it: the JSON
/// text, the envelope check against a request, the plain decoder, and the conformance
/// decoder for every op. The envelope is checked against a request whose id the answer
/// echoes (odd sizes) or not (even sizes).
inline int FuzzProtocolResponse(const uint8_t* data, size_t size) {
  std::optional<nlohmann::json> j = ParseOrNull(AsText(data, size));
  if (!j) return 0;
  nlohmann::json request = {{"id", 7}, {"op", "load-table"}};
  if (size % 2 == 1 && j->is_object() && j->contains("id")) request["id"] = (*j)["id"];
  (void)EnvelopeProblem(request, *j);
  Result<Response> r = ResponseFromJson(*j);
  if (r) {
    (void)ResponseToJson(*r);
  } else {
    CheckError(r.error());
  }
  for (const std::string& op : AllOps()) {
    Result<Response> typed = ResponseForOpFromJson(op, *j);
    if (!typed) CheckError(typed.error());
  }
  // Requests travel the other way (`ictk serve`, fixtures): decode those too.
  Result<Request> req = RequestFromJson(*j);
  if (req) {
    nlohmann::json encoded = RequestToJson(*req);
    encoded["id"] = 1;
    Result<Request> again = RequestFromJson(encoded);
    FuzzCheck(again.has_value(), "encoded request decodes");
  }
  return 0;
}

/// A fixture file (FIXTURES.md): the JSON text, the strict fixture decoder of fixtures/
/// (DecodeFixture; its errors name the source), then every step's request as a runner
/// sends it (with an id) through the protocol codec, which must round-trip it.
inline int FuzzFixture(const uint8_t* data, size_t size) {
  std::optional<nlohmann::json> j = ParseOrNull(AsText(data, size));
  if (!j) return 0;
#ifdef ICTK_FUZZ_HAVE_FIXTURE_DECODER
  {
    Result<Fixture> fixture = DecodeFixture(*j, "input");
    if (!fixture) {
      FuzzCheck(!fixture.error().message.empty(), "fixture errors are not empty");
      FuzzCheck(fixture.error().message.find("input") != std::string::npos,
                "fixture errors name the source");
    } else {
      // The hash is taken over decoded fixtures only (it expects an object).
      (void)FixtureHashedText(fixture->document);
    }
  }
#endif
  if (!j->is_object()) return 0;
  auto steps = j->find("steps");
  if (steps == j->end() || !steps->is_array()) return 0;
  int64_t id = 0;
  for (const nlohmann::json& step : *steps) {
    if (!step.is_object()) continue;
    auto request = step.find("request");
    if (request == step.end() || !request->is_object()) continue;
    nlohmann::json sent = *request;
    sent["id"] = ++id;
    (void)RequestOpName(sent);
    Result<Request> r = RequestFromJson(sent);
    if (!r) {
      CheckError(r.error());
      continue;
    }
    nlohmann::json encoded = RequestToJson(*r);
    encoded["id"] = id;
    Result<Request> again = RequestFromJson(encoded);
    FuzzCheck(again.has_value(), "encoded request decodes");
    FuzzCheck(SameJson(RequestToJson(*again), RequestToJson(*r)), "request round-trips");
  }
  return 0;
}

/// `hello`'s answer as the harness reads it at the start of every run: the conformance
/// decoder for `hello`, then what certify derives from it: the capabilities, format
/// versions and profile (`Capabilities::FromHello`, docs/protocol.md section 9) and the
/// profile in words. Unknown capability names are ignored, never an error.
inline int FuzzHello(const uint8_t* data, size_t size) {
  std::optional<nlohmann::json> j = ParseOrNull(AsText(data, size));
  if (!j) return 0;
  Result<Response> typed = ResponseForOpFromJson("hello", *j);
  if (!typed) {
    CheckError(typed.error());
    return 0;
  }
  Result<Response> plain = ResponseFromJson(*j);
  if (!plain) CheckError(plain.error());
  if (!typed->hello) return 0;
#ifdef ICTK_FUZZ_HAVE_CAPABILITIES
  const HelloInfo& hello = *typed->hello;
  const Capabilities c =
      Capabilities::FromHello(hello.capabilities, hello.format_versions, hello.profile);
  FuzzCheck(!c.ProfileName().empty(), "a profile has a name");
  for (const std::string& name : c.Names())
    FuzzCheck(c.Has(name), "the capabilities named are set");
  // The names it keeps give the same capabilities again.
  const Capabilities again = Capabilities::FromHello(
      c.Names(), std::vector<int32_t>(c.format_versions.begin(), c.format_versions.end()),
      c.writer ? "writer" : "reader");
  FuzzCheck(again == c, "capabilities round-trip through their names");
#endif
  return 0;
}

/// An expectation file (`--expect`, docs/replay.md): the line parser, whose errors name
/// the source and a line; then matching every pattern against a few case IDs and the
/// strictness checks over them.
inline int FuzzExpectationFile(const uint8_t* data, size_t size) {
#ifdef ICTK_FUZZ_HAVE_EXPECTATION_FILE
  Result<ExpectationFile> file = ParseExpectationFile(AsText(data, size), "input");
  if (!file) {
    FuzzCheck(file.error().message.rfind("input:", 0) == 0,
              "expectation file errors name the source and line");
    return 0;
  }
  const std::vector<std::string> ids = {"random/s1/0", "def.single-pk/basic-1",
                                        "expectations/1", ""};
  for (const ExpectationEntry& e : file->entries) {
    FuzzCheck(e.line >= 1, "entries have a line");
    for (const std::string& id : ids) (void)GlobMatch(e.pattern, id);
    FuzzCheck(GlobMatch(e.pattern, e.pattern) || e.is_glob(),
              "a plain case ID matches itself");
  }
  for (const std::string& id : ids) (void)FindExpectation(*file, id);
  (void)ExpectationBreaches(*file, ids);
#else
  (void)data;
  (void)size;
#endif
  return 0;
}

/// A run's report.jsonl (`ictk report render|diff`, `certify --resume`, shard merging):
/// the line reader, whose errors name the source; what it reads writes back to text that
/// reads again to the same text.
inline int FuzzReport(const uint8_t* data, size_t size) {
#ifdef ICTK_FUZZ_HAVE_REPORTS
  Result<Report> report = ParseReportJsonl(AsText(data, size), "input");
  if (!report) {
    FuzzCheck(!report.error().message.empty(), "report errors are not empty");
    FuzzCheck(report.error().message.find("input") != std::string::npos,
              "report errors name the source");
    return 0;
  }
  const std::string text = ToJsonl(*report);
  Result<Report> again = ParseReportJsonl(text, "again");
  FuzzCheck(again.has_value(), "a written report reads back");
  FuzzCheck(ToJsonl(*again) == text, "a report round-trips");
  for (const CaseRecord& c : report->cases) {
    (void)CauseOf(c);
    if (c.failure) (void)FindingOf(*c.failure);
  }
  (void)FailureCauses(report->cases);
#else
  (void)data;
  (void)size;
#endif
  return 0;
}

/// A spec text for review (`ictk trace`, `ictk fingerprint`, `ictk review --spec`): plain
/// markdown, a unified diff or a mail-formatted review. The form is recognised, the
/// Constraints section is read, and every sentence keeps what ReadConstraintsSection
/// promises: numbered 1..n in text order, its normalized form and normative flag those of
/// NormalizeSpecText and IsNormative, its text with whitespace collapsed; errors name the
/// source. Quotes normalize without a trailing `.`, `:`, `;` or space.
inline int FuzzSpecText(const uint8_t* data, size_t size) {
#ifdef ICTK_FUZZ_HAVE_SPEC_TEXT
  const std::string_view text = AsText(data, size);
  const SpecFormat format = DetectSpecFormat(text);
  FuzzCheck(!ToString(format).empty(), "every spec format has a name");
  (void)SpecLines(text, format);
  Result<SpecSection> section = ReadConstraintsSection(text, "input");
  if (!section) {
    FuzzCheck(section.error().kind == ErrorKind::kInvalid,
              "a spec text without the section is kInvalid");
    FuzzCheck(section.error().message.rfind("input:", 0) == 0,
              "spec text errors name the source");
    return 0;
  }
  FuzzCheck(section->format == format, "the section is read in the detected form");
  int index = 0;
  for (const SpecSentence& sentence : section->sentences) {
    FuzzCheck(sentence.index == ++index, "sentences are numbered 1..n in text order");
    FuzzCheck(sentence.normalized == NormalizeSpecText(sentence.text),
              "a sentence's normalized form is NormalizeSpecText of its text");
    FuzzCheck(sentence.normative == IsNormative(sentence.text),
              "a sentence's normative flag is IsNormative of its text");
    FuzzCheck(sentence.text.find("  ") == std::string::npos &&
                  (sentence.text.empty() ||
                   (sentence.text.front() != ' ' && sentence.text.back() != ' ')),
              "a sentence's text has its whitespace collapsed");
    const std::string quote = NormalizeQuote(sentence.text);
    FuzzCheck(quote.empty() || (quote.back() != '.' && quote.back() != ':' &&
                                quote.back() != ';' && quote.back() != ' '),
              "a quote normalizes without a trailing . : ; or space");
  }
#else
  (void)data;
  (void)size;
#endif
  return 0;
}

/// A metadata delta an adapter answers (docs/protocol.md section 7) against the metadata
/// it is based on, as the session applies it: `{"base": {metadata}, "delta": {...}}`. A
/// refused delta changes nothing; an applied one leaves an object, and the delta made
/// from the two (MakeMetadataDelta) rebuilds the same JSON. `{"base": ..., "next": ...}`
/// checks that the delta made from any two objects turns the one into the other.
inline int FuzzMetadataDelta(const uint8_t* data, size_t size) {
  std::optional<nlohmann::json> j = ParseOrNull(AsText(data, size));
  if (!j || !j->is_object() || !j->contains("base")) return 0;
  const nlohmann::json base = (*j)["base"];
  if (const auto delta = j->find("delta"); delta != j->end()) {
    nlohmann::json rebuilt = base;
    Result<void> applied = ApplyMetadataDelta(rebuilt, *delta);
    if (!applied) {
      FuzzCheck(applied.error().kind == ErrorKind::kParse, "a refused delta is kParse");
      FuzzCheck(applied.error().message.find("/metadata-delta") != std::string::npos ||
                    applied.error().message.find("(root)") != std::string::npos,
                "a refused delta names its pointer");
      FuzzCheck(SameJson(rebuilt, base), "a refused delta changes nothing");
      return 0;
    }
    FuzzCheck(rebuilt.is_object(), "an applied delta leaves an object");
    nlohmann::json again = base;
    FuzzCheck(ApplyMetadataDelta(again, MakeMetadataDelta(base, rebuilt)).has_value(),
              "a made delta applies");
    FuzzCheck(SameJson(again, rebuilt), "a made delta rebuilds the same JSON");
  }
  if (const auto next = j->find("next");
      next != j->end() && base.is_object() && next->is_object()) {
    nlohmann::json rebuilt = base;
    FuzzCheck(ApplyMetadataDelta(rebuilt, MakeMetadataDelta(base, *next)).has_value(),
              "a made delta applies");
    FuzzCheck(SameJson(rebuilt, *next), "a made delta turns base into next");
  }
  return 0;
}

}  // namespace ictk::fuzz
