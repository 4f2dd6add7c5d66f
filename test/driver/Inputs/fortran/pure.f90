! A Fortran program with no C of its own (fortran.test): a strided column sent with a vector type.
program pure
  use mpi
  implicit none
  integer :: ierr, rank, column
  double precision :: a(16), b(4)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  a = [(rank * 100 + ierr, ierr = 1, 16)]
  call MPI_Type_vector(4, 1, 4, MPI_DOUBLE_PRECISION, column, ierr)
  call MPI_Type_commit(column, ierr)
  call MPI_Sendrecv(a, 1, column, 1 - rank, 0, b, 4, MPI_DOUBLE_PRECISION, 1 - rank, 0, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  print '(a,i0,a,4f6.0)', 'rank ', rank, ' got', b
  call MPI_Type_free(column, ierr)
  call MPI_Finalize(ierr)
end program pure
