

batch/v1CronJob>

c7
	* * * * ***(2&$
nginxnginxB
gpu2PNever