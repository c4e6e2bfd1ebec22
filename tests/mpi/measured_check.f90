! The Fortran module's measured plan and self-check (hetlb_mpi_plan_create_measured, hetlb_mpi_plan_check)
! on 4 ranks: an even guess, then the computing times ranks at speeds 1, 1, 2, 4 would take (2 ms per
! item at speed 1, computed, not waited: the check's arithmetic is exact here): REPLANNED, then ON_TRACK
! with the speeds' proportions 30, 30, 60, 120 of 240, then a margin of 0 refused on every rank.
program measured_check
  use mpi_f08
  use hetlb_mpi_f08
  use, intrinsic :: iso_c_binding, only: c_double, c_long_long
  implicit none
  integer(c_long_long), parameter :: n = 240
  real(c_double), parameter :: speeds(0:3) = [1.0_c_double, 1.0_c_double, 2.0_c_double, 4.0_c_double]
  integer, parameter :: expected(0:3) = [30, 30, 60, 120]
  type(hetlb_mpi_plan) :: plan
  integer :: rank, size, count, status, ierr, bad, any_bad
  integer(c_long_long) :: offset
  real(c_double) :: departure

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call hetlb_mpi_set_error_output(.false.)
  bad = merge(0, 1, size == 4)
  call hetlb_mpi_plan_create_measured(1e-3_c_double, 0, n, 0, MPI_COMM_WORLD, plan, ierr)
  if (ierr /= MPI_SUCCESS) bad = 1
  call hetlb_mpi_plan_share(plan, count, offset)
  call hetlb_mpi_plan_check(plan, count * 2e-3_c_double / speeds(rank), 0.25_c_double, .true., status, departure, ierr)
  if (ierr /= MPI_SUCCESS .or. status /= HETLB_MPI_PLAN_REPLANNED) bad = 1
  call hetlb_mpi_plan_share(plan, count, offset)
  if (count /= expected(rank)) bad = 1
  call hetlb_mpi_plan_check(plan, count * 2e-3_c_double / speeds(rank), 0.25_c_double, .true., status, ierror=ierr)
  if (ierr /= MPI_SUCCESS .or. status /= HETLB_MPI_PLAN_ON_TRACK) bad = 1
  call hetlb_mpi_plan_check(plan, 0.1_c_double, 0.0_c_double, .false., status, ierror=ierr)
  if (hetlb_mpi_error_of(ierr) /= HETLB_MPI_E_ARG) bad = 1
  call hetlb_mpi_plan_free(plan)
  call MPI_Allreduce(bad, any_bad, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  if (rank == 0) print '(a, i0, a)', 'Fortran measured plan: ', count, merge(' items on rank 0, replanned, on track', &
                                                                          ' WRONG                               ', any_bad == 0)
  call MPI_Finalize()
  if (any_bad /= 0) error stop 1
end program measured_check
