/* Peterson's mutual exclusion for two processes (correct). */
bool flag0 = false, flag1 = false;
byte turn = 0;
bool try0 = false, try1 = false, crit0 = false, crit1 = false;

active proctype P0() {
  do
  :: try0 = true;
     flag0 = true;
     turn = 1;
     (!flag1 || turn == 0);
     try0 = false;
     crit0 = true;
     crit0 = false;
     flag0 = false
  od
}

active proctype P1() {
  do
  :: try1 = true;
     flag1 = true;
     turn = 0;
     (!flag0 || turn == 1);
     try1 = false;
     crit1 = true;
     crit1 = false;
     flag1 = false
  od
}
