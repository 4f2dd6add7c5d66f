// The plans go after the whole #include line of mpi.h: when a block comment opens on that line
// and closes on a later one, or the line is spliced with a backslash, inserting them at the first
// newline would put them inside the comment (the rewritten file then did not compile and
// tempi-cc fell back). The #line after them names the line after the comment, so a warning
// still points at the user's line.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: FileCheck --check-prefix=HEAD --input-file=%t.out.c %s
// RUN: %clang -fsyntax-only -Wunused-variable -I%mock_mpi -I%tempi_include %t.out.c 2> %t.err
// RUN: FileCheck --check-prefix=WARN --input-file=%t.err %s
// RUN: sed -e "s|^#include <mpi.h> /\* the MPI$|#include <mpi.h> \\\\|" -e "s|^   library, two lines \*/$|  /* spliced */|" %t.c > %t.splice.c
// RUN: tempi-rewrite %t.splice.c -- -I%mock_mpi > %t.splice.out.c
// RUN: FileCheck --check-prefix=SPLICE --input-file=%t.splice.out.c %s
// RUN: %clang -fsyntax-only -Wunused-variable -I%mock_mpi -I%tempi_include %t.splice.out.c 2> %t.splice.err
// RUN: FileCheck --check-prefix=WARN --input-file=%t.splice.err %s
#include <stdio.h>
#include <mpi.h> /* the MPI
   library, two lines */
#include <stdlib.h>

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  int unused_here;
  MPI_Finalize();
  return 0;
}
// WARN: .tmp{{(.splice)?}}.c:27:7: warning: unused variable 'unused_here'
// HEAD:      {{^}}#include <mpi.h> /* the MPI
// HEAD-NEXT: {{^}}   library, two lines */
// HEAD-NEXT: {{^}}#include <tempi/tempi.h>
// HEAD-NEXT: {{^}}static tempi_static_plan tempi_gen_plan_{{[0-9a-f]+}} = {1,
// HEAD-NEXT: {{^}}#line 19 "{{.*}}include-line-comment.c.tmp.c"
// HEAD-NEXT: {{^}}#include <stdlib.h>
// SPLICE:      {{^}}#include <mpi.h> \
// SPLICE-NEXT: {{^}}  /* spliced */
// SPLICE-NEXT: {{^}}#include <tempi/tempi.h>
// SPLICE-NEXT: {{^}}static tempi_static_plan tempi_gen_plan_{{[0-9a-f]+}} = {1,
// SPLICE-NEXT: {{^}}#line 19 "{{.*}}include-line-comment.c.tmp.splice.c"
