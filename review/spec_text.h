/// \file
/// Reading the Constraints section of the table spec for review (`ictk trace`): from a
/// plain `format/spec.md`, from a unified diff (the new side: `+` and context lines), or
/// from a mail-formatted review text where the whole hunk sits on one line with ` +`
/// before each spec line and a `Review Comment:` glued onto the last sentence. The
/// section is split into sentences (paragraphs, list items and the description cell of
/// each table row), each normalized for matching against the rule catalogue's quotes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "codec/result.h"

namespace ictk {

/// How the input text was recognised.
enum class SpecFormat { kPlain, kUnifiedDiff, kMailReview };
/// "plain", "unified-diff", "mail-review".
std::string_view ToString(SpecFormat format);

/// One sentence of the Constraints section.
struct SpecSentence {
  int index = 0;  ///< 1-based, in text order
  std::string
      subsection;    ///< the nearest heading: "Constraints", "Constraint Fields", ...
  std::string text;  ///< as written, whitespace collapsed
  std::string normalized;  ///< NormalizeSpecText(text)
  bool normative = false;  ///< carries must, must not, required, may, only, cannot, ...
  bool operator==(const SpecSentence&) const = default;
};

/// The sentences of one spec text.
struct SpecSection {
  SpecFormat format = SpecFormat::kPlain;
  std::vector<SpecSentence> sentences;
  /// A diff or review whose text may not hold the whole section: it ends before the next
  /// heading, or (a unified diff) has more than one hunk. Sentences outside its hunks are
  /// missing, so rules quoting them look stale.
  bool maybe_partial = false;
};

/// Text as `trace` compares it: markdown links reduced to their text, emphasis markers
/// (`**`, `*`, `_` at word edges) and code ticks dropped, whitespace collapsed to single
/// spaces, ASCII lower case. Punctuation stays.
std::string NormalizeSpecText(std::string_view text);

/// A rule quote as `trace` looks for it: NormalizeSpecText without a trailing `.`, `:`
/// or `;` (a quote may be a sentence or part of one).
std::string NormalizeQuote(std::string_view quote);

/// Whether a sentence states a requirement: it contains one of must, must not, required,
/// may, only, cannot, shall, should, or "is/are defined" (whole words, any case).
bool IsNormative(std::string_view sentence);

/// Recognises the form of `text`.
SpecFormat DetectSpecFormat(std::string_view text);

/// The spec lines of `text` (diff markers removed, a mail review's one-line hunk split at
/// ` +`, a `Review Comment:` and what follows cut off).
std::vector<std::string> SpecLines(std::string_view text, SpecFormat format);

/// The sentences of the `### Constraints` section (up to the next heading of level 1-3)
/// of `text`. `source` names the input in errors ("kInvalid: FILE: no `### Constraints`
/// heading").
Result<SpecSection> ReadConstraintsSection(std::string_view text,
                                           std::string_view source);

}  // namespace ictk
