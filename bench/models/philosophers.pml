/* Four dining philosophers; each takes the lower-numbered fork first, so
   there is no deadlock. eatI: philosopher I eats; hungryI: it waits. */
bool fork0 = false, fork1 = false, fork2 = false, fork3 = false;
bool eat0 = false, eat1 = false, eat2 = false, eat3 = false;
bool hungry0 = false, hungry1 = false, hungry2 = false, hungry3 = false;

#define TAKE(f) atomic { !f -> f = true }

active proctype phil0() { do :: hungry0 = true; TAKE(fork0); TAKE(fork1); hungry0 = false; eat0 = true; eat0 = false; fork1 = false; fork0 = false od }
active proctype phil1() { do :: hungry1 = true; TAKE(fork1); TAKE(fork2); hungry1 = false; eat1 = true; eat1 = false; fork2 = false; fork1 = false od }
active proctype phil2() { do :: hungry2 = true; TAKE(fork2); TAKE(fork3); hungry2 = false; eat2 = true; eat2 = false; fork3 = false; fork2 = false od }
active proctype phil3() { do :: hungry3 = true; TAKE(fork0); TAKE(fork3); hungry3 = false; eat3 = true; eat3 = false; fork3 = false; fork0 = false od }
