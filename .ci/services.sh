# Sourced by `make test`: point the suite at PostgreSQL and Redis when they answer.
service_up() {
  python3 -c "import socket,sys; s=socket.socket(); s.settimeout(1); sys.exit(s.connect_ex(('127.0.0.1', $1)))"
}

detect_services() {
  if [ -z "${DATABASE_URL:-}" ] && service_up 5432; then
    export DATABASE_URL="postgresql://postgres@127.0.0.1:5432/cardlab"
  fi
  if [ -z "${REDIS_URL:-}" ] && service_up 6379; then
    export REDIS_URL="redis://127.0.0.1:6379/15"
  fi
  echo "make test: database ${DATABASE_URL:-sqlite (no PostgreSQL reachable)}"
  echo "make test: broker ${REDIS_URL:-none (Redis not reachable; broker tests use the filesystem transport)}"
}
