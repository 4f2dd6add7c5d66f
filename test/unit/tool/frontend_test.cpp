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
  EXPECT_EQ(o.reasons[0], "count depends on 'count', a parameter of 'f'");
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

} // namespace
