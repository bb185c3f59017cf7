/* grid/grid.c: placeholder until its issue lands. */
typedef int grid_placeholder;
