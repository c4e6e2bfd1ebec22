! The Fortran 2008 interface of the diffusion runtime (use hetlb_diffusion_f08): 4 ranks, every item on
! rank 0 at the start, bulk-synchronous, balanced by time with given speeds 1, 1, 2, 4. Every iteration
! the program's own MPI_Allreduce checks that every item is held once (count and id sums) and that every
! rank got the same answer from iteration_done; at the end each rank holds its speed-proportional share
! (within 10%), every payload is intact, and misuse is reported (index out of range, speeds of the
! wrong count, freeing twice). Exit 0 when every check passes.
program diffusion_check
  use, intrinsic :: iso_c_binding, only: c_int64_t, c_ptr, c_f_pointer, c_associated
  use mpi_f08
  use hetlb_diffusion_f08
  implicit none
  type(hetlb_diffusion) :: lb
  integer :: rank, size, ierr, i, failed, any_failed, iteration, code
  integer(c_int64_t) :: id, total, payload(2), mine(4), all(4), expected_sum
  integer(c_int64_t), pointer :: item(:)
  type(c_ptr) :: p
  logical :: running
  double precision :: speeds(4), share
  character(len=4096) :: calibration

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  failed = 0
  speeds = [1d0, 1d0, 2d0, 4d0]
  total = 40 * size
  call hetlb_diffusion_create(MPI_COMM_WORLD, 16, lb, ierr, balance='time', speeds=speeds(1:size), &
                              bulk_synchronous=.true., integer_load=.true., iterations=5, &
                              min_balancing_period=0.002d0, time_limit=30d0)
  if (ierr /= HETLB_DIFFUSION_SUCCESS) then
    if (rank == 0) print '(a)', 'create: ' // hetlb_diffusion_last_error()
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  if (rank == 0) then
    do id = 0, total - 1
      payload = [id, id * id]
      call hetlb_diffusion_add(lb, id, payload)
    end do
  end if
  call hetlb_diffusion_start(lb, ierr)
  expected_sum = total * (total - 1) / 2
  running = .true.
  iteration = 0
  do while (running)
    iteration = iteration + 1
    do i = 1, hetlb_diffusion_size(lb)
      call c_f_pointer(hetlb_diffusion_item(lb, i), item, [2])
      if (item(1) /= hetlb_diffusion_id(lb, i) .or. item(2) /= item(1) * item(1)) failed = 1
    end do
    call hetlb_diffusion_iteration_done(lb, running, compute_seconds=1d-4 * hetlb_diffusion_size(lb) / speeds(rank + 1))
    mine = [int(hetlb_diffusion_size(lb), c_int64_t), 0_c_int64_t, merge(1_c_int64_t, 0_c_int64_t, running), 0_c_int64_t]
    do i = 1, hetlb_diffusion_size(lb)
      mine(2) = mine(2) + hetlb_diffusion_id(lb, i)
    end do
    call MPI_Allreduce(mine, all, 4, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD)
    if (all(1) /= total .or. all(2) /= expected_sum) failed = 1
    if (all(3) /= 0 .and. all(3) /= size) failed = 1
  end do
  share = total * speeds(rank + 1) / sum(speeds(1:size))
  if (abs(hetlb_diffusion_size(lb) - share) > 0.1d0 * share) failed = 1
  if (rank == 0) print '(a,i0,a,i0)', 'fortran diffusion: ended at iteration ', iteration, ', rank 0 holds ', &
                                      hetlb_diffusion_size(lb)
  ! Misuse: an index out of range; freeing twice.
  p = hetlb_diffusion_item(lb, hetlb_diffusion_size(lb) + 1, ierr)
  if (c_associated(p) .or. ierr /= HETLB_DIFFUSION_ERR_ARG) failed = 1
  call hetlb_diffusion_free(lb)
  call hetlb_diffusion_free(lb)
  ! Speeds of the wrong count: refused on every rank.
  call hetlb_diffusion_create(MPI_COMM_WORLD, 16, lb, code, speeds=[1d0])
  if (code /= HETLB_DIFFUSION_ERR_ARG .or. index(hetlb_diffusion_last_error(), 'one speed per rank') == 0) failed = 1

  ! hetlb-calibrate's output as it is (argument 1): speeds 1000, 500, 2000, 250 on rank 0..3.
  call get_command_argument(1, calibration)
  call hetlb_diffusion_create(MPI_COMM_WORLD, 16, lb, code, speeds_file=trim(calibration))
  if (code /= HETLB_DIFFUSION_SUCCESS) failed = 1
  if (code == HETLB_DIFFUSION_SUCCESS) then
    speeds = [1000d0, 500d0, 2000d0, 250d0]
    if (abs(hetlb_diffusion_speed(lb) - speeds(rank + 1)) > 1d-6) failed = 1
  end if
  call hetlb_diffusion_free(lb)

  call MPI_Allreduce(failed, any_failed, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  if (rank == 0 .and. any_failed /= 0) print '(a)', 'fortran diffusion check: FAILED'
  call MPI_Finalize()
  if (any_failed /= 0) stop 1
end program diffusion_check
