#include "codec/result.h"

namespace ictk {

std::string_view ToString(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kParse: return "parse";
    case ErrorKind::kInvalid: return "invalid";
    case ErrorKind::kIo: return "io";
    case ErrorKind::kAdapter: return "adapter";
    case ErrorKind::kUsage: return "usage";
    case ErrorKind::kInternal: break;
  }
  return "internal";
}

}  // namespace ictk
