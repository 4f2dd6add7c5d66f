// C++ writes that do not look like `x = v` or `&x` at the variable's own reference: each once
// made the tool prove the value the variable held before and rewrite with the wrong plan
// (found by a corpus helper, session 23). Now each refuses with a remark that names the write:
// - a definition inside a try block or a handler of a variable declared outside it (Clang's CFG
//   has no edge from a throwing call to the handler, so the definition looked as if it
//   dominated the code after the try statement); one declared inside the try block is proven,
// - an argument of a lambda's, functor's or class's operator (`set(t, v)`, `link = other`),
//   whose argument 0 is the object, so argument i is parameter i - 1,
// - the lvalue result of `(f(), x)`, `s.*pm`, `(x = a)` and `++n` written again (a discarded
//   or loaded one is no write).
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

static double buf[64];
static void validate(int n) {
  if (n < 3)
    throw n;
}

void try_outside(int argc) {
  int nghost = 1;
  MPI_Datatype face, rows;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &face);
  try {
    validate(argc);
    nghost = 2;
    MPI_Type_contiguous(4, MPI_DOUBLE, &face);
  } catch (int) {
  }
  MPI_Type_vector(nghost, 8, 8, MPI_DOUBLE, &rows);
  MPI_Send(buf, 1, face, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, rows, 1, 1, MPI_COMM_WORLD);
}

void try_handler(int argc) {
  MPI_Datatype face;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &face);
  try {
    validate(argc);
  } catch (int) {
    MPI_Type_contiguous(4, MPI_DOUBLE, &face);
  }
  MPI_Send(buf, 1, face, 1, 2, MPI_COMM_WORLD);
}

void try_inside(int argc) {
  try {
    MPI_Datatype face;
    validate(argc);
    MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &face);
    MPI_Send(buf, 1, face, 1, 3, MPI_COMM_WORLD);
  } catch (int) {
  }
}

struct Link {
  int peer;
  MPI_Datatype type;
};

void operator_arguments() {
  MPI_Datatype col, row, a, b;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_contiguous(4, MPI_DOUBLE, &row);
  auto set = [](MPI_Datatype &t, MPI_Datatype v) { t = v; };
  a = col;
  set(a, row);
  struct Setter {
    void operator()(int, MPI_Datatype &t, MPI_Datatype v) const { t = v; }
  } put;
  b = col;
  put(0, b, row);
  Link link = {1, col}, other = {1, row};
  link = other;
  MPI_Send(buf, 1, a, 1, 4, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 5, MPI_COMM_WORLD);
  MPI_Send(buf, 1, link.type, 1, 6, MPI_COMM_WORLD);
}

static int steps;
static int note() { return ++steps; }

void lvalue_results() {
  MPI_Datatype col, row, a, b, c, d;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_contiguous(4, MPI_DOUBLE, &row);
  (a = col) = row;
  b = col;
  (note(), b) = row;
  Link link = {1, col};
  MPI_Datatype Link::*member = &Link::type;
  link.*member = row;
  int n = 4;
  ++n = 2;
  MPI_Type_vector(n, 1, 8, MPI_DOUBLE, &c);
  d = row;
  (void)(note(), d); // a discarded comma: d is not written
  MPI_Send(buf, 1, a, 1, 7, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 8, MPI_COMM_WORLD);
  MPI_Send(buf, 1, link.type, 1, 9, MPI_COMM_WORLD);
  MPI_Send(buf, 1, c, 1, 10, MPI_COMM_WORLD);
  MPI_Send(buf, 1, d, 1, 11, MPI_COMM_WORLD);
}
// CHECK-LABEL: void try_outside(int argc) {
// CHECK: {{^}}  MPI_Send(buf, 1, face, 1, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(buf, 1, rows, 1, 1, MPI_COMM_WORLD);
// CHECK-LABEL: void try_handler(int argc) {
// CHECK: {{^}}  MPI_Send(buf, 1, face, 1, 2, MPI_COMM_WORLD);
// CHECK-LABEL: void try_inside(int argc) {
// CHECK: {{^}}    tempi_Send(buf, 1, face, 1, 3, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void operator_arguments() {
// CHECK: {{^}}  MPI_Send(buf, 1, a, 1, 4, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(buf, 1, b, 1, 5, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(buf, 1, link.type, 1, 6, MPI_COMM_WORLD);
// CHECK-LABEL: void lvalue_results() {
// CHECK: {{^}}  MPI_Send(buf, 1, a, 1, 7, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(buf, 1, b, 1, 8, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(buf, 1, link.type, 1, 9, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(buf, 1, c, 1, 10, MPI_COMM_WORLD);
// CHECK: {{^}}  tempi_Send(buf, 1, d, 1, 11, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: datatype 'face' of MPI_Send is left to the runtime: 'face' is written inside a try statement (whose exception paths the tool does not follow) on line 32
// REMARK: remark: datatype 'rows' of MPI_Send is left to the runtime: count depends on 'nghost', which is written inside a try statement (whose exception paths the tool does not follow) on line 31
// REMARK: remark: datatype 'face' of MPI_Send is left to the runtime: 'face' is written inside a try statement (whose exception paths the tool does not follow) on line 46
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'face' holds vector(4, 1, 8, MPI_DOUBLE)
// REMARK: remark: datatype 'a' of MPI_Send is left to the runtime: 'a' is set by 'operator()', which is an operator
// REMARK: remark: datatype 'b' of MPI_Send is left to the runtime: 'b' is set by 'operator()', which is an operator
// REMARK: remark: datatype 'link.type' of MPI_Send is left to the runtime: 'link.type' is passed by reference to 'operator=' on line 79
// REMARK: remark: datatype 'a' of MPI_Send is left to the runtime: 'a' is assigned in an expression whose result is used as an lvalue on line 92
// REMARK: remark: datatype 'b' of MPI_Send is left to the runtime: 'b' is the value of a comma expression used as an lvalue on line 94
// REMARK: remark: datatype 'link.type' of MPI_Send is left to the runtime: 'link.type' is reached through a pointer to member on line 97
// REMARK: remark: datatype 'c' of MPI_Send is left to the runtime: count depends on 'n', which is incremented in an expression whose result is used as an lvalue on line 99
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'd' holds contiguous(4, MPI_DOUBLE)
