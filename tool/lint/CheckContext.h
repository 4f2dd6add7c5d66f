/// \file
/// What every check receives (the parsed TU, the constructor sites, the front end's Analysis and
/// the options), and the entry point of each check, one file per check:
///   NonCanonicalType.cpp  non-canonical-type
///   DuplicateLayout.cpp   duplicate-layout
///   UnresolvedDatatype.cpp unresolved-datatype, invalid-datatype
///   GpuShape.cpp          gpu-tiny-blocks, gpu-nearly-regular, gpu-many-dims
///   DeviceBuffer.cpp      device-buffer-to-mpi
#pragma once

#include "tool/lint/Checks.h"
#include "tool/lint/ConstructorSites.h"

#include "tool/clang/Analysis.h"

#include "clang/Basic/SourceManager.h"

namespace tempi::lint {

struct CheckContext {
  clang::ASTContext &ctx;
  const std::vector<ConstructorSite> &constructors;
  const frontend::Analysis &analysis;
  const LintOptions &options;
  /// "line 12" of a location (its expansion in the main file).
  std::string lineOf(clang::SourceLocation loc) const;
};

void checkNonCanonicalType(const CheckContext &c, std::vector<Finding> &out);
void checkDuplicateLayout(const CheckContext &c, std::vector<Finding> &out);
void checkUnresolvedDatatype(const CheckContext &c, std::vector<Finding> &out);
void checkInvalidDatatype(const CheckContext &c, std::vector<Finding> &out);
void checkGpuShapes(const CheckContext &c, std::vector<Finding> &out);
void checkDeviceBuffers(const CheckContext &c, std::vector<Finding> &out);

/// A finding of `name` (which must be registered) at a call, highlighting the call.
Finding findingAt(const char *name, const clang::Expr *e, std::string message,
                  clang::ASTContext &ctx);

} // namespace tempi::lint
