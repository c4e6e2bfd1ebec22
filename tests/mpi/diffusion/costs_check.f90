! Item costs from Fortran (use hetlb_diffusion_f08): 4 ranks, every item on rank 0 at the start, every
! 4th one 10 times costlier (set in bulk, then one by one), bulk-synchronous, balanced by load. Checked:
! the costs read back and travel with the items, misuse is refused (a cost <= 0, an id not held), each
! rank's load (the sum of its costs) ends within 1% of the average plus the amounts still owed, and every
! item is held once. Exit 0 when every check passes.
program costs_check
  use, intrinsic :: iso_c_binding, only: c_int64_t
  use mpi_f08
  use hetlb_diffusion_f08
  implicit none
  integer, parameter :: items = 200
  type(hetlb_diffusion) :: lb
  integer :: rank, size, ierr, i, failed, any_failed, held, total
  integer(c_int64_t) :: id, payload(2)
  logical :: running
  double precision :: costs(items), load, average

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  failed = 0
  call hetlb_diffusion_create(MPI_COMM_WORLD, 16, lb, ierr, balance='load', bulk_synchronous=.true., &
                              iterations=10, time_limit=20d0)
  if (ierr /= HETLB_DIFFUSION_SUCCESS) call MPI_Abort(MPI_COMM_WORLD, 1)
  if (rank == 0) then
    do id = 0, items - 1
      payload = [id, id]
      call hetlb_diffusion_add(lb, id, payload)
    end do
    costs = 1d0
    call hetlb_diffusion_set_costs(lb, costs, ierr)
    if (ierr /= HETLB_DIFFUSION_SUCCESS) failed = 1
    do id = 0, items - 1, 4
      call hetlb_diffusion_set_cost(lb, id, 10d0, ierr)
      if (ierr /= HETLB_DIFFUSION_SUCCESS) failed = 1
    end do
    call hetlb_diffusion_set_cost(lb, 0_c_int64_t, 0d0, ierr)
    if (ierr /= HETLB_DIFFUSION_ERR_ARG) failed = 1
    call hetlb_diffusion_set_cost(lb, int(items, c_int64_t), 1d0, ierr)
    if (ierr /= HETLB_DIFFUSION_ERR_ARG) failed = 1
    if (hetlb_diffusion_load(lb) /= 650d0) failed = 1
  end if
  call hetlb_diffusion_start(lb, ierr)
  running = .true.
  do while (running)
    do i = 1, hetlb_diffusion_size(lb)
      id = hetlb_diffusion_id(lb, i)
      if (hetlb_diffusion_cost(lb, i) /= merge(10d0, 1d0, mod(id, 4_c_int64_t) == 0)) failed = 1
    end do
    call hetlb_diffusion_iteration_done(lb, running)
  end do
  load = hetlb_diffusion_load(lb)
  average = 650d0 / size
  if (abs(load - average) > 0.01d0 * average + 2 * 10d0) failed = 1
  held = hetlb_diffusion_size(lb)
  call MPI_Allreduce(held, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (total /= items) failed = 1
  print '(a,i0,a,i0,a,f6.0)', 'fortran costs: rank ', rank, ' holds ', held, ' items, load ', load
  call hetlb_diffusion_free(lb)
  call MPI_Allreduce(failed, any_failed, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  if (rank == 0 .and. any_failed /= 0) print '(a)', 'fortran costs check: FAILED'
  call MPI_Finalize()
  if (any_failed /= 0) stop 1
end program costs_check
