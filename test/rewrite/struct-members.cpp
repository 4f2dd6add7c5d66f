// C++ spellings of datatypes kept in struct members (struct-members.c has the rules): a C-like
// struct (no base, no member function, not a template) is tracked, in a local, a `Halo h{}`, or
// a static whose trivial default construction is no value; a class with a member function that
// may write its members is not; a reference to a struct, or a copy made by the copy
// constructor, is refused, and so is another member bound to a reference that may write it.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

struct Halo {
  MPI_Datatype col;
  int n;
};

class Wrapped {
public:
  MPI_Datatype col;
  void build() { MPI_Type_contiguous(2, MPI_INT, &col); }
};

namespace {
Halo shared_halo; // internal linkage, built once by init()
}

void init() { MPI_Type_contiguous(4, MPI_INT, &shared_halo.col); }

void send_all(int *u, int peer) {
  // CHECK-LABEL: void send_all(
  Halo h;
  MPI_Type_contiguous(3, MPI_INT, &h.col);
  MPI_Send(u, 1, h.col, peer, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h.col, peer, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h.col' holds contiguous(3, MPI_INT)
  Halo k{};
  MPI_Type_vector(3, 1, 4, MPI_INT, &k.col);
  MPI_Send(u, 1, k.col, peer, 1, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, k.col, peer, 1, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'k.col' holds vector(3, 1, 4, MPI_INT)
  MPI_Send(u, 1, shared_halo.col, peer, 2, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, shared_halo.col, peer, 2, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'shared_halo.col' holds contiguous(4, MPI_INT)
  Halo c = h;
  MPI_Send(u, 1, c.col, peer, 3, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, c.col, peer, 3, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'c.col' of MPI_Send is left to the runtime: 'c' has an initializer the tool cannot read
  Wrapped w;
  w.build();
  MPI_Send(u, 1, w.col, peer, 4, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, w.col, peer, 4, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'w.col' of MPI_Send is left to the runtime: 'col' is a member of 'w', whose type the tool does not track
  Halo &r = k;
  MPI_Send(u, 1, r.col, peer, 5, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, r.col, peer, 5, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'r.col' of MPI_Send is left to the runtime: 'r' is a reference
  MPI_Send(u, 1, k.col, peer, 6, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, k.col, peer, 6, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'k.col' of MPI_Send is left to the runtime: 'k.col' is used as an lvalue on line 55
}

// Another member bound to a reference that may write it is its address under another name:
// refused like `&h.n` passed to a function; a const reference or a copy only reads it.
void set_n(int &n);
void read_n(const int &n);
void references(int *u, int peer) {
  // CHECK-LABEL: void references(
  Halo a, b, c;
  MPI_Type_contiguous(3, MPI_INT, &a.col);
  set_n(a.n);
  MPI_Send(u, 1, a.col, peer, 7, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, a.col, peer, 7, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'a.col' of MPI_Send is left to the runtime: 'a.col' has its member 'n' passed by reference to 'set_n' on line [[@LINE-3]]
  MPI_Type_contiguous(3, MPI_INT, &b.col);
  int &r = b.n;
  r = 2;
  MPI_Send(u, 1, b.col, peer, 8, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, b.col, peer, 8, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'b.col' of MPI_Send is left to the runtime: 'b.col' has its member 'n' bound to the reference 'r' on line [[@LINE-4]]
  MPI_Type_contiguous(3, MPI_INT, &c.col);
  read_n(c.n);
  const int &cr = c.n;
  c.n = cr + 1;
  MPI_Send(u, 1, c.col, peer, 9, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, c.col, peer, 9, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'c.col' holds contiguous(3, MPI_INT)
}
