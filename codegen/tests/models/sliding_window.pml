/* The alternating-bit protocol, the sliding-window protocol with a window
   of one, over a channel that loses a message now and then but never two
   in a row (lost: the last message was lost). The sender retransmits until the bit it sent comes back.
   sent: the sender has a message out; delivered: the receiver has just
   passed a new message on. A full channel blocks the sender, so the
   receiver runs, fairness or not: every message is delivered. */
chan to_r = [1] of { bit };
chan to_s = [1] of { bit };
bool sent = false, delivered = false, lost = false;

active proctype sender() {
  bit b = 0, a;
  do
  :: sent = true;
     do
     :: to_r ! b
     :: to_s ? a ->
        if
        :: a == b -> break
        :: else -> skip
        fi
     od;
     sent = false;
     b = 1 - b
  od
}

active proctype receiver() {
  bit expected = 0, m;
  do
  :: to_r ? m ->
     lost = false;
     if
     :: m == expected -> delivered = true; delivered = false; expected = 1 - expected
     :: else -> skip
     fi;
     to_s ! m
  :: (!lost && len(to_r) > 0) -> to_r ? m; lost = true    /* the channel loses it */
  od
}
