"""The English words failure messages are made of ("a is not a function"): a program name
goi makes (semantics/canonical.py) is never one of them, and a message's word that is one is
never folded as the program's name (goi/folding.py), so the same defect reads the same whatever
its program's names."""

WORDS = frozenset("""a an the is are was be been not no nor of in on at to by as or and if it its for from with
into than then this that these those there here what which who when where why how all any some each every one two
do does did done has have had can cannot could may might must shall should will would me my we us our you your he
him his she her they them their am so up out off over under only also but yet just too very got get go""".split())
