"""Never rejects: a program our type checker refuses gets the answer 0 (a lenient front
end); correct on well-typed programs."""

from common import answer, program, run_correctly

import goi

text = program()
try:
    goi.check(text)
except goi.TypeCheckError:
    answer({"value": "0"})
else:
    run_correctly(text)
