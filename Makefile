# confnotes: `make demo` and `make test` are all a fresh clone needs (Python 3.11+).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
OUT := build/demo

.PHONY: demo test check stress bench bench-sizes bench-site import-accuracy lint docs clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	@mkdir -p $(OUT)
	@for note in notes/*.md; do \
		name=$$(basename "$$note" .md); \
		echo "== $$note"; $(BIN)/confnotes outline "$$note" || exit $$?; \
		for to in html pdf; do \
			$(BIN)/confnotes render "$$note" --to $$to -o "$(OUT)/$$name.$$to" 2>/dev/null || exit $$?; \
		done; \
		$(BIN)/confnotes render "$$note" --to slides -o "$(OUT)/$$name.slides.html" 2>/dev/null || exit $$?; \
		$(BIN)/confnotes render "$$note" --to pptx -o "$(OUT)/$$name.pptx" 2>/dev/null || exit $$?; \
	done
	@echo; echo "Results in $(OUT)/:"; ls -1 $(OUT) | sed 's|^|  $(OUT)/|'

# Tiers come from what each test uses (tests/conftest.py). pytest's exit 5 (nothing collected) is not a failure.
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider
NOT_EMPTY := rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$rc

# unit and integration tiers on every core (pytest-xdist): WeasyPrint, Chromium, LibreOffice and
# the other programs .ci/run installs, Hypothesis properties at 100 examples each
test: $(STAMP)
	CONFNOTES_FUZZ_EXAMPLES=100 $(PYTEST) -n auto -m "not stress"; $(NOT_EMPTY)

# the edit-test loop: the unit tier only (pure Python in one process), properties at 30 examples
check: $(STAMP)
	CONFNOTES_FUZZ_EXAMPLES=30 $(PYTEST) -n auto -m unit; $(NOT_EMPTY)

# 20 MB notes through every command, and every property at its full count: bounds that are benchmarks
stress: $(STAMP)
	CONFNOTES_FUZZ_EXAMPLES=300 $(PYTEST) -n auto -m "stress or fuzz" --timeout=3600; $(NOT_EMPTY)

bench: $(STAMP)
	$(BIN)/python bench/run.py

# the three 20 MB shapes (code, tables, bullets) in pdf, slides-pdf, pptx and docx, and the bombs: time and peak memory
bench-sizes: $(STAMP)
	$(BIN)/python bench/sizes.py

# the site's search over 1,000 notes in Chromium: query time and index size
bench-site: $(STAMP)
	$(BIN)/python bench/site_search.py

# outline nodes right per writer on the import fixtures (and pandoc's, with PANDOC=path or pandoc on PATH)
import-accuracy: $(STAMP)
	$(BIN)/python tools/import_accuracy.py

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

docs: $(STAMP)
	$(BIN)/python -m confnotes.lint.docs > docs/rules.md
	$(BIN)/python -m confnotes.limits docs/security.md
	@echo "docs/rules.md regenerated from the rule catalogue, docs/security.md's limits from confnotes.limits"

clean:
	rm -rf $(VENV) build site .confnotes_cache
