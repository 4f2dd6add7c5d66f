/// \file
/// GoogleTest of the front end library on small C snippets parsed in memory: what analyze()
/// resolves (the TypeExpr text form and the canonical shape) and the reasons it gives otherwise.
/// The snippets include a minimal mpi.h defined here, in the MPICH style (MPI_Datatype is an int
/// and MPI_DOUBLE a cast literal), so recognition by spelling is exercised too.
#include "tool/clang/Analysis.h"

#include "passes/TextForm.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace tempi;
using namespace tempi::frontend;

namespace {

const char *kMpi = R"(
typedef int MPI_Datatype; typedef int MPI_Comm; typedef long MPI_Aint;
#define MPI_DOUBLE ((MPI_Datatype)0x4c00080b)
#define MPI_INT ((MPI_Datatype)0x4c000405)
#define MPI_COMM_WORLD ((MPI_Comm)0x44000000)
int MPI_Type_vector(int, int, int, MPI_Datatype, MPI_Datatype *);
int MPI_Type_contiguous(int, MPI_Datatype, MPI_Datatype *);
int MPI_Type_create_struct(int, const int[], const MPI_Aint[], const MPI_Datatype[], MPI_Datatype *);
int MPI_Type_commit(MPI_Datatype *);
int MPI_Type_free(MPI_Datatype *);
int MPI_Get_address(const void *, MPI_Aint *);
int MPI_Send(const void *, int, MPI_Datatype, int, int, MPI_Comm);
)";

struct Outcome {
  std::vector<std::string> resolved; ///< printExpr of each planned argument, in call order
  std::vector<std::string> reasons;  ///< reasons of the arguments without a plan
};

Outcome run(const std::string &body) {
  std::string code = std::string(kMpi) + body;
  std::unique_ptr<clang::ASTUnit> ast = clang::tooling::buildASTFromCodeWithArgs(
      code, {"-x", "c", "-std=c11", "-resource-dir=" TEMPI_RESOURCE_DIR}, "snippet.c");
  EXPECT_TRUE(ast);
  Outcome out;
  if (!ast)
    return out;
  EXPECT_FALSE(ast->getDiagnostics().hasErrorOccurred());
  Analysis a = analyze(ast->getASTContext());
  for (const CallSite &s : a.sites)
    for (const DatatypeArg &d : s.args) {
      if (d.hasPlan())
        out.resolved.push_back(printExpr(*d.expr));
      else if (!d.predefined)
        out.reasons.push_back(d.why.reason);
    }
  return out;
}

TEST(Frontend, EvaluatesLocalsWithOneDefinition) {
  Outcome o = run(R"(void f(double *b) {
    int n = 4; int m = n * 3 + 1; MPI_Datatype t;
    MPI_Type_vector(n, 2, m, MPI_DOUBLE, &t);
    MPI_Send(b, 1, t, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.resolved.size(), 1u);
  EXPECT_EQ(o.resolved[0], "vector(4, 2, 13, MPI_DOUBLE)");
  EXPECT_TRUE(o.reasons.empty());
}

TEST(Frontend, ParameterCountIsNamed) {
  Outcome o = run(R"(void f(double *b, int count) {
    MPI_Datatype t;
    MPI_Type_vector(count, 2, 8, MPI_DOUBLE, &t);
    MPI_Send(b, 1, t, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.reasons.size(), 1u);
  EXPECT_EQ(o.reasons[0], "count depends on 'count', a parameter of 'f', which another file may "
                          "call (it is not static)");
}

TEST(Frontend, ParameterOfStaticFunctionTakesItsOneCallValue) {
  Outcome o = run(R"(static void f(double *b, int count) {
    MPI_Datatype t;
    MPI_Type_vector(count, 2, 8, MPI_DOUBLE, &t);
    MPI_Send(b, 1, t, 0, 0, MPI_COMM_WORLD);
  }
  void g(double *b) { f(b, 6); f(b + 1, 3 * 2); })");
  ASSERT_EQ(o.resolved.size(), 1u);
  EXPECT_EQ(o.resolved[0], "vector(6, 2, 8, MPI_DOUBLE)");
  EXPECT_TRUE(o.reasons.empty());
}

TEST(Frontend, IncrementOfProvenValueIsProven) {
  Outcome o = run(R"(void f(double *b) {
    int n = 4; MPI_Datatype t;
    n++;
    MPI_Type_vector(n, 1, 8, MPI_DOUBLE, &t);
    MPI_Send(b, 1, t, 0, 0, MPI_COMM_WORLD);
  })");
  // ++ of a proven value is itself proven: 5.
  ASSERT_EQ(o.resolved.size(), 1u);
  EXPECT_EQ(o.resolved[0], "vector(5, 1, 8, MPI_DOUBLE)");
}

TEST(Frontend, OverflowIsRefused) {
  Outcome o = run(R"(void f(double *b) {
    long big = 0x7fffffffffffffffL; MPI_Datatype t;
    MPI_Type_vector(2, 1, (int)(big + 1), MPI_DOUBLE, &t);
    MPI_Send(b, 1, t, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.reasons.size(), 1u);
  EXPECT_EQ(o.reasons[0], "stride overflows 64 bits");
}

TEST(Frontend, ReassignmentOnOnePathIsRefused) {
  Outcome o = run(R"(void f(double *b, int c) {
    MPI_Datatype t;
    MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
    if (c) MPI_Type_contiguous(2, MPI_DOUBLE, &t);
    MPI_Send(b, 1, t, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.reasons.size(), 1u);
  EXPECT_EQ(o.reasons[0].rfind("'t' is reassigned on line", 0), 0u) << o.reasons[0];
}

TEST(Frontend, GetAddressDifferencesOfOneObject) {
  Outcome o = run(R"(struct s { int i; double d[2]; };
  void f(void) {
    struct s v; MPI_Aint base, disp[1]; int bl[1] = {2};
    MPI_Datatype ty[1] = {MPI_DOUBLE}; MPI_Datatype t;
    MPI_Get_address(&v, &base);
    MPI_Get_address(&v.d[0], &disp[0]);
    disp[0] -= base;
    MPI_Type_create_struct(1, bl, disp, ty, &t);
    MPI_Send(&v, 1, t, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.resolved.size(), 1u);
  EXPECT_EQ(o.resolved[0], "struct(1, [2], [8], [MPI_DOUBLE])");
}

TEST(Frontend, NamedTypeThroughUserMacro) {
  Outcome o = run(R"(#define REAL MPI_DOUBLE
  void f(double *b) {
    MPI_Datatype t;
    MPI_Type_contiguous(3, REAL, &t);
    MPI_Send(b, 1, t, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.resolved.size(), 1u);
  EXPECT_EQ(o.resolved[0], "contiguous(3, MPI_DOUBLE)");
}

TEST(Frontend, EscapeThroughPointerIsRefused) {
  Outcome o = run(R"(void g(int *);
  void f(double *b) {
    int n = 4; MPI_Datatype t;
    g(&n);
    MPI_Type_vector(n, 1, 8, MPI_DOUBLE, &t);
    MPI_Send(b, 1, t, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.reasons.size(), 1u);
  EXPECT_EQ(o.reasons[0], "count depends on 'n', which has its address passed to 'g' on line 16");
}

TEST(Frontend, FreedBeforeUseIsRefused) {
  Outcome o = run(R"(void f(double *b) {
    MPI_Datatype t;
    MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
    MPI_Type_free(&t);
    MPI_Send(b, 1, t, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.reasons.size(), 1u);
  EXPECT_EQ(o.reasons[0].rfind("'t' is freed on line", 0), 0u) << o.reasons[0];
}

TEST(Frontend, HelperWithBoundParametersIsProven) {
  // MPICH-style int handles; an element write whose index is known once 'k' is bound.
  Outcome o = run(R"(static MPI_Datatype make(int k, MPI_Datatype old) {
    MPI_Datatype t; int c[2] = {4, 4};
    c[k + 1] = 2;
    MPI_Type_vector(c[0], c[1], 8 * (k + 1), old, &t);
    MPI_Type_commit(&t);
    return t;
  }
  void f(double *b) {
    MPI_Datatype x = make(0, MPI_DOUBLE), y = make(1, MPI_INT);
    MPI_Send(b, 1, x, 0, 0, MPI_COMM_WORLD);
    MPI_Send(b, 1, y, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.resolved.size(), 1u) << (o.reasons.empty() ? "" : o.reasons[0]);
  EXPECT_EQ(o.resolved[0], "vector(4, 2, 8, MPI_DOUBLE)");
  // make(1, ...) writes c[2], past the end of the two-element array: refused, not guessed.
  ASSERT_EQ(o.reasons.size(), 1u);
  EXPECT_EQ(o.reasons[0], "'t' in 'make': count depends on 'c[0]', which is indexed out of bounds "
                          "([2]) on line 15");
}

TEST(Frontend, HelperWithUnboundIndexIsRefused) {
  Outcome o = run(R"(static MPI_Datatype make(int k) {
    MPI_Datatype t; int c[2] = {4, 4};
    c[k] = 2;
    MPI_Type_vector(c[0], c[1], 8, MPI_DOUBLE, &t);
    return t;
  }
  void f(double *b, int k) {
    MPI_Datatype x = make(k);
    MPI_Send(b, 1, x, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.reasons.size(), 1u);
  EXPECT_EQ(o.reasons[0], "'t' in 'make': count depends on 'c[0]', which is written through a "
                          "non-constant index on line 15")
      << o.reasons[0];
}

TEST(Frontend, HelperReturningAnotherTypeIsRefused) {
  // With int handles a helper returning 'long' compiles; it is not followed.
  Outcome o = run(R"(static long make(void) {
    MPI_Datatype t;
    MPI_Type_contiguous(4, MPI_DOUBLE, &t);
    return t;
  }
  void f(double *b) {
    MPI_Datatype x = make();
    MPI_Send(b, 1, x, 0, 0, MPI_COMM_WORLD);
  })");
  ASSERT_EQ(o.reasons.size(), 1u);
  EXPECT_EQ(o.reasons[0], "the datatype is returned by a call to 'make', which does not return an "
                          "MPI_Datatype");
}

} // namespace
