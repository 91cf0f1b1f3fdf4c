

batch/v1Job/

j(2&$
nginxnginxB
gpu2PNever