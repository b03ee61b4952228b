// The hand-over of --engine mpi to the program that links the MPI engine, in a
// header of its own so that the command line and the small file that defines it
// include nothing else of the engine.
#pragma once

namespace statespace {

// Called by a command as soon as it knows that it runs --engine mpi, before it has
// read a puzzle or written anything. The engine links Open MPI, which the statespace
// binary leaves out (2.5 MB of every run's memory): that binary replaces itself here
// with statespace-mpi from its own folder, given the same arguments (execv), which
// runs the engine under mpirun or alone. Returns in statespace-mpi and in the other
// programs, and where there is no statespace-mpi (a build without MPI, whose engine
// entry points then refuse).
void enter_mpi_engine();

}  // namespace statespace
