"""Checks every golden schema against the draft-07 and 2020-12 metaschemas, and that a validator
built from it under each dialect runs."""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    print("SKIPPED: python3 has no jsonschema module (Debian: apt-get install python3-jsonschema); "
          "the golden schemas were not checked against the metaschemas")
    sys.exit(77)  # ctest SKIP_RETURN_CODE

folder = pathlib.Path(sys.argv[1])
passed = failed = 0
for path in sorted(folder.glob("*.json")):
    schema = json.loads(path.read_text())
    for validator in (jsonschema.Draft7Validator, jsonschema.Draft202012Validator):
        try:
            validator.check_schema(schema)
            validator(schema).is_valid({})
            passed += 1
        except Exception as error:  # report every file, then fail
            failed += 1
            print(f"{path.name} under {validator.__name__}: {error}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
