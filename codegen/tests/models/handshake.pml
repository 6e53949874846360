/* A four-phase request/acknowledge handshake. */
bool req = false, ack = false;

active proctype client() {
  do
  :: (!ack) -> req = true;
     (ack) -> req = false
  od
}

active proctype server() {
  do
  :: (req) -> ack = true;
     (!req) -> ack = false
  od
}
