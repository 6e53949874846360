/* A broken mutual exclusion: each process checks the other's flag before
   raising its own, so both can enter. */
bool flag0 = false, flag1 = false;
bool try0 = false, try1 = false, crit0 = false, crit1 = false;

active proctype P0() {
  do
  :: try0 = true;
     (!flag1);
     flag0 = true;
     try0 = false;
     crit0 = true;
     crit0 = false;
     flag0 = false
  od
}

active proctype P1() {
  do
  :: try1 = true;
     (!flag0);
     flag1 = true;
     try1 = false;
     crit1 = true;
     crit1 = false;
     flag1 = false
  od
}
