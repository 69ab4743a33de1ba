// Generation honours the profile and the declared format versions (docs/protocol.md
// section 9): a reader profile is sent only read-statuses and parse-metadata (the rest of
// its plan is setup the model performs alone), and a writer is never sent a create-table
// or an upgrade at a known format version it did not declare, nor (without 4) a
// constraint change.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <string>

#include "generators/history.h"
#include "generators/schema_gen.h"
#include "generators/value_gen.h"
#include "model/judge/operations.h"

namespace ictk {
namespace {

std::vector<RenderedStep> Rendered(const HistoryGenConfig& config, uint64_t seed,
                                   int size) {
  std::optional<Plan> plan = Sample(GenPlan(config), seed, size);
  if (!plan) return {};
  RenderOptions options;
  options.table = "t" + std::to_string(seed);
  options.function_prefix = options.table + "_";
  options.capabilities = config.capabilities;
  options.switches.declared_format_versions = config.capabilities.format_versions;
  return RenderHistory(*plan, options).steps;
}

TEST(Profiles, AReaderIsSentOnlyReaderRequestsOnModelWrittenMetadata) {
  HistoryGenConfig config;
  config.capabilities = Capabilities::FromHello({"reader", "parse-metadata"}, {1, 2, 3},
                                                "reader");
  config.max_steps = 20;
  std::map<std::string, int64_t> sent;
  std::set<int32_t> versions_given;
  int64_t setup = 0, with_constraints = 0;
  for (uint64_t i = 0; i < 40; ++i) {
    for (const RenderedStep& s : Rendered(config, i, 60)) {
      if (s.setup) {
        ++setup;
        continue;
      }
      ++sent[std::string(OpName(s.request.op))];
      const TableMetadata* md = nullptr;
      if (const auto* p = std::get_if<ParseMetadata>(&s.request.op)) md = &p->metadata;
      if (const auto* r = std::get_if<ReadStatuses>(&s.request.op)) md = &r->metadata;
      ASSERT_NE(md, nullptr) << s.label;
      versions_given.insert(md->format_version);
      if (md->constraints && !md->constraints->empty()) ++with_constraints;
    }
  }
  EXPECT_GT(setup, 0) << "the model prepares the reader's inputs";
  EXPECT_EQ(sent.size(), 2u) << "only parse-metadata and read-statuses are sent";
  EXPECT_GT(sent["parse-metadata"], 0);
  EXPECT_GT(sent["read-statuses"], 0);
  EXPECT_GT(with_constraints, 0) << "model-written v4 metadata with constraints";
  EXPECT_TRUE(versions_given.count(4)) << "a v1-v3 reader is also given v4 metadata";
  EXPECT_TRUE(versions_given.count(3) || versions_given.count(2));
}

TEST(Profiles, AReaderWithoutReaderCapabilitiesIsSentNothing) {
  HistoryGenConfig config;
  config.capabilities = Capabilities::FromHello({}, {1, 2, 3}, "reader");
  for (uint64_t i = 0; i < 10; ++i)
    for (const RenderedStep& s : Rendered(config, i, 50)) EXPECT_TRUE(s.setup) << s.label;
}

TEST(Profiles, AV1ToV3WriterGetsNoV4RequestAndNoConstraintChange) {
  HistoryGenConfig config;
  config.capabilities = Capabilities::All();
  config.capabilities.format_versions = {1, 2, 3};
  config.max_steps = 20;
  std::set<std::string> ops;
  std::set<int32_t> created;
  for (uint64_t i = 0; i < 60; ++i) {
    for (const RenderedStep& s : Rendered(config, i, 60)) {
      EXPECT_FALSE(s.setup);
      ops.insert(std::string(OpName(s.request.op)));
      if (const auto* c = std::get_if<CreateTable>(&s.request.op))
        created.insert(c->format_version);
      if (const auto* u = std::get_if<Upgrade>(&s.request.op))
        EXPECT_NE(u->format_version, 4) << s.label;
      EXPECT_FALSE(std::holds_alternative<AddConstraint>(s.request.op)) << s.label;
      EXPECT_FALSE(std::holds_alternative<UpdateConstraint>(s.request.op)) << s.label;
      EXPECT_FALSE(std::holds_alternative<RemoveConstraint>(s.request.op)) << s.label;
    }
  }
  EXPECT_FALSE(created.count(4));
  EXPECT_FALSE(created.empty());
  EXPECT_TRUE(ops.count("commit"));
  EXPECT_TRUE(ops.count("upgrade")) << "upgrades among the declared versions";
}

TEST(Profiles, AWriterOfOneOldVersionCreatesOnlyThatVersion) {
  HistoryGenConfig config;
  config.capabilities = Capabilities::FromHello({"schema-evolution"}, {2});
  std::set<int32_t> created;
  for (uint64_t i = 0; i < 20; ++i)
    for (const RenderedStep& s : Rendered(config, i, 40))
      if (const auto* c = std::get_if<CreateTable>(&s.request.op))
        created.insert(c->format_version);
  EXPECT_EQ(created, std::set<int32_t>{2});
}

}  // namespace
}  // namespace ictk
