program main
  use mpi
  implicit none
  integer :: ierr
  call MPI_Init(ierr)
  call exchange_column()
  call MPI_Finalize(ierr)
end program main
