/* Processes entering a critical section guarded by a semaphore; ncrit
   counts the processes inside. With sem = 1 at most one is inside. */
byte sem = 1;
byte ncrit = 0;

active [3] proctype user() {
  do
  :: atomic { sem > 0 -> sem-- };
     ncrit++;
     ncrit--;
     sem++
  od
}
