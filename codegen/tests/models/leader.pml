/* Leader election on a unidirectional ring of three processes (Chang and
   Roberts): each sends its identifier to its right neighbour, forwards the
   identifiers greater than its own, drops the smaller ones, and becomes the
   leader when its own comes back. A heartbeat process ticks forever, so
   that without fairness an execution can run it alone: election properties
   then need weak fairness (pan -a -f). */
#define N 3
chan ring[N] = [N] of { byte };
byte nr_leaders = 0;
bool elected = false;
bool tick = false;

proctype node(byte me; byte id) {
  byte m;
  ring[(me + 1) % N] ! id;
  do
  :: ring[me] ? m ->
     if
     :: m > id -> ring[(me + 1) % N] ! m
     :: m == id -> nr_leaders++; elected = true; break
     :: m < id -> skip
     fi
  od
}

active proctype heartbeat() {
  do
  :: tick = !tick
  od
}

init {
  atomic {
    run node(0, 2);
    run node(1, 3);
    run node(2, 1)
  }
}
