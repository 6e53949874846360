/* A server that drops the acknowledgement without waiting for the client. */
bool req = false, ack = false;

active proctype client() {
  do
  :: (!ack) -> req = true;
     (ack) -> req = false
  od
}

active proctype server() {
  do
  :: (req && !ack) -> ack = true
  :: (ack) -> ack = false
  od
}
