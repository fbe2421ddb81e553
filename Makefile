# confnotes: `make demo` and `make test` are all a fresh clone needs (Python 3.11+).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
OUT := build/demo

.PHONY: demo test check bench lint docs clean

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

# the whole suite on every core (pytest-xdist): over 3,000 tests, with browsers, LibreOffice and fuzzing
test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider -n auto; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$rc

# the edit-test loop: no browser, no LibreOffice, nothing marked slow (tests/conftest.py says why each is)
check: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider -n 2 -m "not browser and not libreoffice and not slow"; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$rc

bench: $(STAMP)
	$(BIN)/python bench/run.py

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

docs: $(STAMP)
	$(BIN)/python -m confnotes.lint.docs > docs/rules.md
	@echo "docs/rules.md regenerated from the rule catalogue"

clean:
	rm -rf $(VENV) build site .confnotes_cache
