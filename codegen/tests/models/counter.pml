/* A counter modulo 8 that can also be reset. */
byte x = 0;
bool reset = false;

active proctype counter() {
  do
  :: x < 7 -> x++
  :: x == 7 -> x = 0
  :: reset = true; x = 0; reset = false
  od
}
