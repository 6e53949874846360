/* Three dining philosophers; the last takes its forks in the other order,
   so there is no deadlock. A hungry philosopher waits for a fork held by a
   neighbour, and a blocked wait is not continuously enabled: weak fairness
   (pan -a -f) does not keep a philosopher from starving, though someone
   always eats again. */
bool fork0 = false, fork1 = false, fork2 = false;
bool hungry0 = false, hungry1 = false, hungry2 = false;
bool eating0 = false, eating1 = false, eating2 = false;

#define TAKE(f) atomic { !f -> f = true }

active proctype phil0() {
  do
  :: hungry0 = true; TAKE(fork0); TAKE(fork1);
     hungry0 = false; eating0 = true; eating0 = false;
     fork1 = false; fork0 = false
  od
}

active proctype phil1() {
  do
  :: hungry1 = true; TAKE(fork1); TAKE(fork2);
     hungry1 = false; eating1 = true; eating1 = false;
     fork2 = false; fork1 = false
  od
}

active proctype phil2() {
  do
  :: hungry2 = true; TAKE(fork0); TAKE(fork2);
     hungry2 = false; eating2 = true; eating2 = false;
     fork2 = false; fork0 = false
  od
}
