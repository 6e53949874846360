/* A bounded buffer of two places between a producer and a consumer, and a
   monitor process that samples the buffer's fill forever (so that without
   fairness an execution can run it alone). put/got are true right after a
   put/get; is_full is true while the buffer is full. */
chan buf = [2] of { byte };
bool put = false, got = false, is_full = false;
byte seen = 0;

active proctype producer() {
  byte x = 0;
  do
  :: buf ! x -> put = true; is_full = (len(buf) == 2); put = false; x = (x + 1) % 4
  od
}

active proctype consumer() {
  byte y;
  do
  :: buf ? y -> got = true; is_full = false; got = false
  od
}

active proctype sampler() {
  do
  :: seen = len(buf)
  od
}
