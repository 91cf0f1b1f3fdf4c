# Regenerates kubectl-configmap.{json,yaml} (see README.md); run from this directory.
import subprocess, sys
vals = ["true","yes","y","Y","n","on","off","NO","null","~","","123","0x1F","0o17","017","08","1_000","1.5",".5","1e3","1e400",".inf","-.Inf",".nan",
 "2001-12-14","2001-12-14T21:59:43.10-05:00","2001-12-14 21:59:43","2001-13-14","1:20","1:60","12:30:45","-1:20",
 "a: b","a:b","a #b","a#b","#a","- a","-a","-","--","---","...","? a","?a",":a","a:"," lead","trail "," both ","a  b",
 "!a","&a","*a","|a",">a","'a","\"a","%a","@a","`a","[a]","{a}","a,b","a'b","a\"b","it's",
 "multi\nline","multi\nline\n","multi\n\n","\nlead","\n"," a\nb","a \nb","a\n b","a\tb","\ttab","a\r\nb","a\u00e9","caf\u00e9 ok","\u2028x","x\u00a0y","\u00a0",
 "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen",
 "one,two,three,four,five,six,seven,eight,nine,ten,eleven,twelve,thirteen,fourteen,fifteen,sixteen",
 "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp qqqq: rrrr",
 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
 "line one\nline two is quite long long long long long long long long long long long long long long long end\n",
 "trailing spaces   \nnext","<<","=","+1","-1","+.5","0b101","0b-11","9223372036854775808","99999999999999999999","1_0.5","0.","-0",
]
args = []
for i, v in enumerate(vals):
    args.append(f"--from-literal=k{i:03d}={v}")
for fmt in ("yaml", "json"):
    out = subprocess.run(["kubectl","create","configmap","x","--dry-run=client","-o",fmt]+args, capture_output=True, text=True)
    if out.returncode: print(out.stderr); sys.exit(1)
    open(f"kubectl-configmap.{fmt}","w").write(out.stdout)
