/// \file
/// The clause table: each rule's sentence split into its clauses (conditions joined by
/// "and", "or", "unless", and list items), each with its words (verbatim from the rule's
/// quote or summary), the generator step label that exercises it alone, where no mutant can
/// exist the reason why (its exemption, of a closed set of kinds), and where work is not
/// done yet the gap. docs/rules.md "Clauses" describes the scheme;
/// tests/model/rule_catalogue_test.cc checks the words and the exemptions, and
/// tests/sample/sample_mutants_test.cc checks that every clause with neither a gap nor an
/// exemption has a mutant and a generator step.
///
/// The rows are in rule_clauses_*.cc, one function per rule group
/// (rule_catalogue_internal.h); MakeClauses concatenates them in the table's order.
#include "model/judge/rule_catalogue_internal.h"

#include <iterator>

namespace ictk {
namespace {

std::vector<ClauseRow> MakeClauses() {
  // {rule, name, words, tag (generator step label), gap (work not done), exempt (why no
  // mutant can exist: docs/rules.md "Clauses")}
  std::vector<ClauseRow> out;
  for (std::vector<ClauseRow> (*group)() :
       {DefClauses, KeyClauses, SemClauses, EnfClauses, IdClauses, UpgClauses,
        ExprClauses, SchClauses, UpdClauses, StClauses, IceProtoClauses1,
        IceProtoClauses2}) {
    std::vector<ClauseRow> rows = group();
    out.insert(out.end(), std::make_move_iterator(rows.begin()),
               std::make_move_iterator(rows.end()));
  }
  return out;
}

}  // namespace

const std::vector<ClauseRow>& ClauseTable() {
  static const std::vector<ClauseRow> rows = MakeClauses();
  return rows;
}

}  // namespace ictk
