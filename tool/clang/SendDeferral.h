/// \file
/// The proof that lets tempi-rewrite turn a rewritten MPI_Isend/MPI_Issend into
/// tempi_Isend_deferred/tempi_Issend_deferred (runtime/include/tempi/tempi.h). For a device buffer
/// the runtime only enqueues the pack of a deferred send; the MPI send starts at the calling
/// thread's next call into libtempi that is not a nonblocking receive or another deferred send (a
/// *flush*), so that all the sends of a halo exchange pack with one launch and one synchronization.
/// A send may only be deferred when a flush is certain to come: otherwise a peer blocked on the
/// message would wait forever.
///
/// Every call on a path (also constructors, destructors, throws and inline assembly) is one of:
///   - flush: an MPI function libtempi interposes other than a nonblocking receive
///     (MPI_Waitall, MPI_Send, MPI_Finalize, ...), or a tempi_ entry point of one;
///   - neutral: MPI_Irecv, MPI_Recv_init, other MPI_Isend/MPI_Issend calls, local MPI queries
///     (MPI_Comm_rank, MPI_Cart_shift, MPI_Wtime, ...), a short list of C library functions that
///     cannot call MPI (printf, memcpy, sqrt, ...), compiler builtins, and functions with a body in
///     this translation unit whose every reachable call is neutral or ends the program, and whose
///     calls into other such functions nest at most kMaxCallDepth levels
///     (`check(MPI_Isend(...), "what")` stays provable);
///   - end: the program stops (MPI_Abort, exit, abort, a failed assert); that path needs no flush;
///   - barrier: anything else (an unknown, indirect or virtual call, MPI_Barrier and every other MPI
///     function libtempi does not interpose, a throw, inline assembly) and the function's return.
/// A function defined in the translation unit whose every path from its entry reaches a flush
/// before a barrier counts as a flush itself.
///
/// The send is deferred exactly when no path from it through neutral calls reaches a barrier or
/// the end of the function: the greatest fixpoint of "every path meets a flush" on Clang's CFG, so
/// a loop that posts sends and leaves into MPI_Waitall is proven. A loop whose body has only
/// neutral calls is assumed to terminate (as C++ forward progress assumes). Refuses (not deferred,
/// with a reason) whenever the CFG cannot be built or a call cannot be classified, and for a send
/// inside an OpenMP region (another thread may run it; the runtime flushes per thread).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <memory>
#include <string>
#include <string_view>

namespace tempi::frontend {

/// The outcome for one send call.
struct DeferralProof {
  bool deferred = false;
  /// Deferred: "the next call TEMPI intercepts is MPI_Waitall on line 345". Otherwise why not:
  /// "'foo' is called on line 12 before any MPI call TEMPI intercepts",
  /// "the function returns on line 20 first", ...
  std::string detail;
  clang::SourceLocation loc; ///< the barrier (not deferred) or the first flush (deferred)
};

/// Functions of the translation unit whose calls into other functions of it nest deeper than this
/// (a function that calls only library functions has height 1) are barriers. The height is a
/// property of the function, so the outcome does not depend on what else the file contains.
constexpr unsigned kMaxCallDepth = 4;

/// One per translation unit: caches the CFG and the summary of every function it looks into.
class SendDeferral {
public:
  explicit SendDeferral(clang::ASTContext &ctx);
  ~SendDeferral();
  SendDeferral(const SendDeferral &) = delete;
  SendDeferral &operator=(const SendDeferral &) = delete;

  /// Whether the send `call`, in the body of `fn`, is followed by a flush on every path.
  DeferralProof prove(const clang::CallExpr *call, const clang::Decl *fn);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// True for an MPI function libtempi interposes that starts deferred sends (all but the
/// nonblocking receives and sends): "MPI_Waitall", "MPI_Finalize", ...
bool isFlushingMpiCall(std::string_view name);

} // namespace tempi::frontend
