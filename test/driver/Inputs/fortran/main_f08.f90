program main_f08
  ! main.f90 with the mpi_f08 module, whose MPI_Init calls PMPI_Init in MPICH (fortran.test).
  use mpi_f08
  implicit none
  call MPI_Init()
  call exchange_column()
  call MPI_Finalize()
end program main_f08
