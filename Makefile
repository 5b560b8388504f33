# Courier: `make run` serves the collector on 127.0.0.1:8080; `make test` runs every test.
SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
DATA ?= .courier
WRITE_KEY ?= dev-write-key
ADMIN_TOKEN ?= dev-admin-token-local
# The sync routes' bearer token under `make run`, and the owner whose records it reads and writes.
SYNC_TOKEN ?= dev-sync-token
SYNC_OWNER ?= dev-user

.PHONY: bootstrap test-bootstrap build run run-cluster test bench lint format clean

# What building and serving need (no PostgreSQL server: SQLite is the default).
bootstrap:
	@scripts/bootstrap

# That, and what the tests and benchmarks use: PostgreSQL, peers, a browser, the Python venv.
test-bootstrap:
	@scripts/bootstrap test

build: bootstrap
	$(SWIFT) build -c release --product courier-server
	$(SWIFT) build -c release --product courier

run: build
	@echo ""
	@echo "Send a batch:"
	@echo "  curl -s -u $(WRITE_KEY): -H 'Content-Type: application/json' -d '{\"batch\":[{\"type\":\"track\",\"event\":\"Signed Up\",\"userId\":\"user-1\",\"properties\":{\"plan\":\"pro\",\"price\":19.99}}]}' http://$(HOST):$(PORT)/v1/batch"
	@echo "Read it back:"
	@echo "  curl -s -H 'Authorization: Bearer $(ADMIN_TOKEN)' 'http://$(HOST):$(PORT)/v1/events?writeKey=$(WRITE_KEY)'"
	@echo "Sync a record as $(SYNC_OWNER) (token $(SYNC_TOKEN)), then read the changes:"
	@echo "  curl -s -H 'Authorization: Bearer $(SYNC_TOKEN)' -H 'Content-Type: application/json' -d '{\"clientID\":\"curl\",\"operations\":[{\"id\":\"op-1\",\"sequence\":1,\"collection\":\"notes\",\"recordID\":\"note-1\",\"op\":\"set\",\"fields\":{\"title\":\"Groceries\"},\"baseVersion\":0}]}' http://$(HOST):$(PORT)/v1/sync/push"
	@echo "  curl -s -H 'Authorization: Bearer $(SYNC_TOKEN)' http://$(HOST):$(PORT)/v1/sync/changes"
	@echo "Point the courier command line at this server:"
	@echo "  export COURIER_SERVER=http://$(HOST):$(PORT) COURIER_ADMIN_TOKEN=$(ADMIN_TOKEN)"
	@echo "Open the console (sign in with the admin token $(ADMIN_TOKEN)):"
	@echo "  http://$(HOST):$(PORT)/console/"
	@echo ""
	COURIER_ADMIN_TOKEN=$(ADMIN_TOKEN) COURIER_SYNC_TOKENS=$(SYNC_TOKEN)=$(SYNC_OWNER) \
		$(SWIFT) run -c release --skip-build courier-server \
		--host $(HOST) --port $(PORT) --data-dir $(DATA) --write-key $(WRITE_KEY)

# Two instances on PostgreSQL and NATS behind haproxy on $(PORT), data under $(DATA)/cluster/
# (docs/deployment.md). `make run` stays one process on SQLite.
run-cluster:
	@scripts/bootstrap cluster
	$(SWIFT) build -c release --product courier-server
	@HOST=$(HOST) PORT=$(PORT) WRITE_KEY=$(WRITE_KEY) ADMIN_TOKEN=$(ADMIN_TOKEN) \
		SYNC_TOKENS=$(SYNC_TOKEN)=$(SYNC_OWNER) scripts/run-cluster

# One pass over every suite. At most TEST_WIDTH tests run at once: the suites start real servers,
# child processes and browsers, and hundreds of them at once on 2 cores would leave each too
# little of the machine to meet its time limit. `make test FILTER=Suite` runs only what matches.
TEST_WIDTH ?= 6
FILTER ?=
test: test-bootstrap
	$(SWIFT) build --build-tests
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build $(if $(FILTER),--filter '$(FILTER)')

bench: test-bootstrap
	$(SWIFT) build -c release --product courier-bench
	$(SWIFT) build -c release --product courier-server
	$(SWIFT) build -c release --product sdk-size-probe
	$(SWIFT) build -c release --product hello-size-probe
	$(SWIFT) run -c release --skip-build courier-bench $(ARGS)

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks
	scripts/check-layering

format:
	$(SWIFT) format format --in-place --recursive Sources Tests Benchmarks

clean:
	rm -rf .build
