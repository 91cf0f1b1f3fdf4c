/* test_validate_slice.c: ResourceSlice admission (validation, defaults and
 * dropped gated fields): one case per rule, valid and invalid side, asserting
 * the exact rendered errors in kube-apiserver's order and the gate-drop
 * warnings. */
#include "validate_cases.h"

static const char base[] =
    "{'apiVersion':'resource.k8s.io/v1','kind':'ResourceSlice','metadata':{'name':'s'},"
    "'spec':{'driver':'dra.example.com','pool':{'name':'pool','generation':0,'resourceSliceCount':1},"
    "'nodeName':'node-1','devices':[{'name':'dev-0'}]}}";

/* An attribute's value is a union checked declaratively (wording checked by validdiff). */
#define ATTR_MEMBERS "`int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`"
#define ONE_OF "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required"
#define DEV_ONE_OF                                                                                            \
  "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set " \
  "to true in the ResourceSlice spec"

static const validate_case spec_cases[] = {
    {.name = "valid minimal slice"},
    {.name = "driver with upper case is tolerated", .patch = "{'spec':{'driver':'DRA.Example.com'}}"},
    {.name = "driver not a subdomain",
     .patch = "{'spec':{'driver':'dra_example.com'}}",
     .errors = {"spec.driver: Invalid value: \"dra_example.com\": " MSG_SUBDOMAIN}},
    {.name = "driver too long",
     .patch = "{'spec':{'driver':'a1234567890123456789012345678901234567890123456789012345678901234.com'}}",
     .errors = {"spec.driver: Too long: may not be more than 63 bytes"}},
    {.name = "pool name missing",
     .patch = "{'spec':{'pool':{'name':''}}}",
     .errors = {"spec.pool.name: Required value"}},
    {.name = "pool name with an empty segment",
     .patch = "{'spec':{'pool':{'name':'a//b'}}}",
     .errors = {"spec.pool.name: Invalid value: \"\": " MSG_SUBDOMAIN}},
    {.name = "pool name with slash segments", .patch = "{'spec':{'pool':{'name':'node-1/gpus'}}}"},
    {.name = "pool counts out of range",
     .patch = "{'spec':{'pool':{'generation':-1,'resourceSliceCount':0}}}",
     .errors = {"spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
                "spec.pool.generation: Invalid value: -1: must be greater than or equal to zero"}},
    {.name = "empty nodeName",
     .patch = "{'spec':{'nodeName':''}}",
     .errors = {"spec.nodeName: Invalid value: \"\": must be either unset or set to a non-empty string",
                "spec: Required value: " ONE_OF}},
    {.name = "nodeName not a subdomain",
     .patch = "{'spec':{'nodeName':'Node_1'}}",
     .errors = {"spec.nodeName: Invalid value: \"Node_1\": " MSG_SUBDOMAIN}},
    {.name = "no node selection",
     .patch = "{'spec':{'nodeName':null}}",
     .errors = {"spec: Required value: " ONE_OF}},
    {.name = "allNodes alone", .patch = "{'spec':{'nodeName':null,'allNodes':true}}"},
    {.name = "allNodes false",
     .patch = "{'spec':{'nodeName':null,'allNodes':false}}",
     .errors = {"spec.allNodes: Invalid value: false: must be either unset or set to true",
                "spec: Required value: " ONE_OF}},
    {.name = "nodeName and allNodes",
     .patch = "{'spec':{'allNodes':true}}",
     .errors = {"spec: Invalid value: \"{`nodeName`, `allNodes`}\": " ONE_OF ", but multiple fields are set"}},
    {.name = "all four node selection fields",
     .patch = "{'spec':{'allNodes':true,'perDeviceNodeSelection':true,'devices':[{'name':'d','allNodes':true}],"
              "'nodeSelector':{'nodeSelectorTerms':[{'matchExpressions':[{'key':'a','operator':'Exists'}]}]}}}",
     .errors = {"spec: Invalid value: \"{`nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection`}\": " ONE_OF
                ", but multiple fields are set"}},
    {.name = "perDeviceNodeSelection false",
     .patch = "{'spec':{'perDeviceNodeSelection':false}}",
     .errors = {"spec.perDeviceNodeSelection: Invalid value: false: must be either unset or set to true"}},
    {.name = "nodeSelector with one term",
     .patch = "{'spec':{'nodeName':null,'nodeSelector':{'nodeSelectorTerms':[{'matchExpressions':"
              "[{'key':'dra.example.com/rack','operator':'In','values':['r1','r2']}]}]}}}"},
    {.name = "nodeSelector with two terms",
     .patch = "{'spec':{'nodeName':null,'nodeSelector':{'nodeSelectorTerms':["
              "{'matchExpressions':[{'key':'a','operator':'Exists'}]},{'matchFields':[{'key':'metadata.name',"
              "'operator':'In','values':['n']}]}]}}}",
     .errors = {"spec.nodeSelector.nodeSelectorTerms: Invalid value: [{\"matchExpressions\":[{\"key\":\"a\","
                "\"operator\":\"Exists\"}]},{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\","
                "\"values\":[\"n\"]}]}]: must have exactly one node selector term"}},
    {.name = "nodeSelector without terms",
     .patch = "{'spec':{'nodeName':null,'nodeSelector':{'nodeSelectorTerms':[]}}}",
     .errors = {"spec.nodeSelector.nodeSelectorTerms: Required value: must have at least one node selector term",
                "spec.nodeSelector.nodeSelectorTerms: Invalid value: []: must have exactly one node selector term"}},
    {.name = "nodeSelector expression rules",
     .patch = "{'spec':{'nodeName':null,'nodeSelector':{'nodeSelectorTerms':[{'matchExpressions':["
              "{'key':'a','operator':'In'},{'key':'b','operator':'Exists','values':['x']},"
              "{'key':'c','operator':'Gt','values':['1','2']},{'key':'-d','operator':'Foo'},"
              "{'key':'e','operator':'NotIn','values':['-x']}]}]}}}",
     .errors =
         {"spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified "
          "when `operator` is 'In' or 'NotIn'",
          "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[1].values: Forbidden: may not be specified when "
          "`operator` is 'Exists' or 'DoesNotExist'",
          "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[2].values: Required value: must be specified "
          "single value when `operator` is 'Lt' or 'Gt'",
          "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[3].operator: Invalid value: \"Foo\": not a valid "
          "selector operator",
          "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[3].key: Invalid value: \"-d\": " MSG_LABEL_NAME_PART,
          "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[4].values[0]: Invalid value: \"-x\": " MSG_LABEL_VALUE}},
    {.name = "nodeSelector field rules",
     .patch = "{'spec':{'nodeName':null,'nodeSelector':{'nodeSelectorTerms':[{'matchFields':["
              "{'key':'metadata.name','operator':'In','values':['a','b']},{'key':'metadata.uid','operator':'In',"
              "'values':['x']},{'key':'metadata.name','operator':'Exists','values':['Node_1']}]}]}}}",
     .errors = {"spec.nodeSelector.nodeSelectorTerms[0].matchFields[0].values: Required value: must be only one "
                "value when `operator` is 'In' or 'NotIn' for node field selector",
                "spec.nodeSelector.nodeSelectorTerms[0].matchFields[1].key: Invalid value: \"metadata.uid\": not a "
                "valid field selector key",
                "spec.nodeSelector.nodeSelectorTerms[0].matchFields[2].operator: Invalid value: \"Exists\": not a "
                "valid selector operator",
                "spec.nodeSelector.nodeSelectorTerms[0].matchFields[2].values[0]: Invalid value: \"Node_1\": " MSG_SUBDOMAIN}},
    {.name = "sharedCounters and devices",
     .patch = "{'spec':{'sharedCounters':[{'name':'cs','counters':{'mem':{'value':'1Gi'}}}]}}",
     .errors = {"spec: Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed"}},
    {.name = "sharedCounters and an empty devices list",
     .patch = "{'spec':{'devices':[],'sharedCounters':[{'name':'cs','counters':{'mem':{'value':'1Gi'}}}]}}",
     .errors = {"spec: Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed"}},
    {.name = "sharedCounters alone",
     .patch = "{'spec':{'devices':null,'sharedCounters':[{'name':'cs','counters':{'mem':{'value':'1Gi'}}}]}}"},
    {.name = "sharedCounters rules",
     .patch = "{'spec':{'devices':null,'sharedCounters':[{'name':'','counters':{}},{'name':'Bad',"
              "'counters':{'Mem':{'value':'1'}}},{'name':'cs','counters':{'a':{'value':'1'}}},"
              "{'name':'cs','counters':{'a':{'value':'1'}}}]}}",
     .errors = {"spec.sharedCounters[0].name: Required value", "spec.sharedCounters[0].counters: Required value",
                "spec.sharedCounters[1].name: Invalid value: \"Bad\": " MSG_LABEL,
                "spec.sharedCounters[1].counters: Invalid value: \"Mem\": " MSG_LABEL,
                "spec.sharedCounters[3]: Duplicate value: \"cs\""}},
    {.name = "too many counters in a set",
     .patch = "{'spec':{'devices':null,'sharedCounters':[{'name':'cs','counters':{'c0':{'value':'1'},'c1':{'value':'1'},'c2':{'value':'1'},'c3':{'value':'1'},'c4':{'value':'1'},'c5':{'value':'1'},'c6':{'value':'1'},'c7':{'value':'1'},'c8':{'value':'1'},'c9':{'value':'1'},'c10':{'value':'1'},'c11':{'value':'1'},'c12':{'value':'1'},'c13':{'value':'1'},'c14':{'value':'1'},'c15':{'value':'1'},'c16':{'value':'1'},'c17':{'value':'1'},'c18':{'value':'1'},'c19':{'value':'1'},'c20':{'value':'1'},'c21':{'value':'1'},'c22':{'value':'1'},'c23':{'value':'1'},'c24':{'value':'1'},'c25':{'value':'1'},'c26':{'value':'1'},'c27':{'value':'1'},'c28':{'value':'1'},'c29':{'value':'1'},'c30':{'value':'1'},'c31':{'value':'1'},'c32':{'value':'1'}}}]}}",
     .errors = {"spec.sharedCounters[0].counters: Too many: 33: must have at most 32 items"}},
    {.name = "too many counters consumed",
     .patch = "{'spec':{'devices':[{'name':'d','consumesCounters':[{'counterSet':'cs','counters':{'c0':{'value':'1'},'c1':{'value':'1'},'c2':{'value':'1'},'c3':{'value':'1'},'c4':{'value':'1'},'c5':{'value':'1'},'c6':{'value':'1'},'c7':{'value':'1'},'c8':{'value':'1'},'c9':{'value':'1'},'c10':{'value':'1'},'c11':{'value':'1'},'c12':{'value':'1'},'c13':{'value':'1'},'c14':{'value':'1'},'c15':{'value':'1'},'c16':{'value':'1'},'c17':{'value':'1'},'c18':{'value':'1'},'c19':{'value':'1'},'c20':{'value':'1'},'c21':{'value':'1'},'c22':{'value':'1'},'c23':{'value':'1'},'c24':{'value':'1'},'c25':{'value':'1'},'c26':{'value':'1'},'c27':{'value':'1'},'c28':{'value':'1'},'c29':{'value':'1'},'c30':{'value':'1'},'c31':{'value':'1'},'c32':{'value':'1'}}}]}]}}",
     .errors = {"spec.devices[0].consumesCounters[0].counters: Too many: 33: must have at most 32 items"}},
    {.name = "too many sharedCounters",
     .patch = "{'spec':{'devices':null,'sharedCounters':[{'name':'a'},{'name':'b'},{'name':'c'},{'name':'d'},"
              "{'name':'e'},{'name':'f'},{'name':'g'},{'name':'h'},{'name':''}]}}",
     .errors = {"spec.sharedCounters: Too many: 9: must have at most 8 items"}},
    {.name = "duplicate device names",
     .patch = "{'spec':{'devices':[{'name':'dev-0'},{'name':'Dev'},{'name':'dev-0'}]}}",
     .errors = {"spec.devices[1].name: Invalid value: \"Dev\": " MSG_LABEL,
                "spec.devices[2]: Duplicate value: \"dev-0\""}},
    /* an empty driver is only Required (found by validdiff) */
    {.name = "empty driver", .patch = "{'spec':{'driver':''}}", .errors = {"spec.driver: Required value"}},
    /* an absent name is the empty one (found by validdiff) */
    {.name = "duplicate empty device names",
     .patch = "{'spec':{'devices':[{'name':''},{'attributes':{}}]}}",
     .errors = {"spec.devices[0].name: Invalid value: \"\": " MSG_LABEL, "spec.devices[1].name: Invalid value: \"\": " MSG_LABEL,
                "spec.devices[1]: Duplicate value: \"\""}},
    {.name = "skipNodeOperations valid", .patch = "{'spec':{'skipNodeOperations':['NodePrepareResources','*']}}"},
    {.name = "skipNodeOperations rules",
     .patch = "{'spec':{'skipNodeOperations':['NodePrepareResources','Reboot','NodePrepareResources']}}",
     .errors = {"spec.skipNodeOperations[1]: Unsupported value: \"Reboot\": supported values: \"*\", "
                "\"NodePrepareResources\", \"NodeUnprepareResources\"",
                "spec.skipNodeOperations[2]: Duplicate value: \"NodePrepareResources\"",
                "spec.skipNodeOperations: Invalid value: [\"NodePrepareResources\",\"Reboot\",\"NodePrepareResources\"]: "
                "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped"}},
    {.name = "partitionTypeAttribute without counter consumption",
     .patch = "{'spec':{'partitionTypeAttribute':'dra.example.com/profile'}}",
     .errors = {"spec.partitionTypeAttribute: Invalid value: \"dra.example.com/profile\": may only be set on a "
                "slice which declares devices that consume counters"}},
    {.name = "partitionTypeAttribute names each consuming device's string attribute",
     .patch = "{'spec':{'partitionTypeAttribute':'dra.example.com/profile','devices':["
              "{'name':'a','attributes':{'profile':{'string':'1g'}},'consumesCounters':[{'counterSet':'cs','counters':{'m':{'value':'1'}}}]},"
              "{'name':'b','attributes':{'dra.example.com/profile':{'string':'2g'}},'consumesCounters':[{'counterSet':'cs','counters':{'m':{'value':'1'}}}]},"
              "{'name':'c'}]}}"},
    {.name = "partitionTypeAttribute missing or not a string",
     .patch = "{'spec':{'partitionTypeAttribute':'dra.example.com/profile','devices':["
              "{'name':'a','consumesCounters':[{'counterSet':'cs','counters':{'m':{'value':'1'}}}]},"
              "{'name':'b','attributes':{'profile':{'int':2}},'consumesCounters':[{'counterSet':'cs','counters':{'m':{'value':'1'}}}]}]}}",
     .errors = {"spec.devices[0].attributes[dra.example.com/profile]: Required value: device consumes counters and "
                "`partitionTypeAttribute` names this attribute, so it must be set",
                "spec.devices[1].attributes[dra.example.com/profile]: Invalid value: {\"int\":2}: must be a string "
                "value because `partitionTypeAttribute` names this attribute"}},
    {.name = "partitionTypeAttribute without a domain",
     .patch = "{'spec':{'partitionTypeAttribute':'profile','devices':["
              "{'name':'a','consumesCounters':[{'counterSet':'cs','counters':{'m':{'value':'1'}}}]}]}}",
     .errors = {"spec.partitionTypeAttribute: Invalid value: \"profile\": a fully qualified name must be a domain "
                "and a name separated by a slash"}},
    {.name = "metadata name required",
     .patch = "{'metadata':{'name':null}}",
     .errors = {"metadata.name: Required value: name or generateName is required"}},
    {.name = "cluster-scoped: namespace forbidden",
     .patch = "{'metadata':{'namespace':'default'}}",
     .errors = {"metadata.namespace: Forbidden: not allowed on this type"}},
};

#define CONSUMES "'consumesCounters':[{'counterSet':'cs','counters':{'m':{'value':'1'}}}]"

static const validate_case device_cases[] = {
    {.name = "device with attributes and capacity",
     .patch = "{'spec':{'devices':[{'name':'gpu-0','attributes':{'model':{'string':'a100'},'dra.example.com/index':"
              "{'int':0},'healthy':{'bool':true},'driverVersion':{'version':'1.2.3-rc.1+build.5'}},"
              "'capacity':{'memory':{'value':'40Gi'}}}]}}"},
    {.name = "attribute keys",
     .patch = "{'spec':{'devices':[{'name':'d','attributes':{'bad key':{'int':1},'/x':{'int':1},"
              "'a.example.com/':{'int':1},'a/b/c':{'int':1},'Dra_Example.com/ok':{'int':1}}}]}}",
     .errors = {"spec.devices[0].attributes: Invalid value: \"\": the domain must not be empty",
                "spec.devices[0].attributes: Invalid value: \"Dra_Example.com\": " MSG_SUBDOMAIN,
                "spec.devices[0].attributes: Invalid value: \"\": the name must not be empty",
                "spec.devices[0].attributes: Invalid value: \"bad key\": " MSG_C_IDENTIFIER}},
    {.name = "attribute values",
     .patch = "{'spec':{'devices':[{'name':'d','attributes':{'a':{},'b':{'int':1,'bool':true},"
              "'c':{'string':'12345678901234567890123456789012345678901234567890123456789012345'},"
              "'d':{'version':'1.0'},'e':{'strings':[]},'f':{'versions':['1.0.0','v2']}}}]}}",
     .errors = {"spec.devices[0].attributes[a]: Invalid value: \"\": must specify one of: " ATTR_MEMBERS,
                "spec.devices[0].attributes[b]: Invalid value: \"{int, bool}\": must specify exactly one of: " ATTR_MEMBERS,
                "spec.devices[0].attributes[c].string: Too long: may not be more than 64 bytes",
                "spec.devices[0].attributes[d].version: Invalid value: \"1.0\": " MSG_SEMVER,
                "spec.devices[0].attributes[e].strings: Invalid value: []: must not be empty if specified",
                "spec.devices[0].attributes[f].versions[1]: Invalid value: \"v2\": " MSG_SEMVER}},
    {.name = "long version attribute",
     .patch = "{'spec':{'devices':[{'name':'d','attributes':{'v':{'version':'1.0.0-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'},'w':{'versions':['1.0.0-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']}}}]}}",
     .errors = {"spec.devices[0].attributes[v].version: Too long: may not be more than 64 bytes",
                "spec.devices[0].attributes[w].versions[0]: Too long: may not be more than 64 bytes"}},
    {.name = "long attribute key shortened in the path",
     .patch = "{'spec':{'devices':[{'name':'d','attributes':{'dra.example.com/abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789':{}}}]}}",
     .errors = {"spec.devices[0].attributes: Too long: may not be more than 32 bytes",
                "spec.devices[0].attributes[dra.example.com/abcdefghijklmnopqrstuvwxyz01234...0123456789abcdefghijklmnopqrstuvwxyz0123456789]: "
                "Invalid value: \"\": must specify one of: " ATTR_MEMBERS}},
    {.name = "attribute value count",
     .patch = "{'spec':{'devices':[{'name':'d','attributes':{'a':{'ints':[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,"
              "19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48]},'b':{'int':1}}}]}}",
     .errors = {"spec.devices[0]: Invalid value: 49: the total number of attribute values must not exceed 48"}},
    {.name = "attribute and capacity count",
     .patch = "{'spec':{'devices':[{'name':'d','attributes':{'a0':{'int':0},'a1':{'int':0},'a2':{'int':0},'a3':{'int':0},"
              "'a4':{'int':0},'a5':{'int':0},'a6':{'int':0},'a7':{'int':0},'a8':{'int':0},'a9':{'int':0},'b0':{'int':0},"
              "'b1':{'int':0},'b2':{'int':0},'b3':{'int':0},'b4':{'int':0},'b5':{'int':0},'b6':{'int':0},'b7':{'int':0},"
              "'b8':{'int':0},'b9':{'int':0}},'capacity':{'c0':{'value':1},'c1':{'value':1},'c2':{'value':1},"
              "'c3':{'value':1},'c4':{'value':1},'c5':{'value':1},'c6':{'value':1},'c7':{'value':1},'c8':{'value':1},"
              "'c9':{'value':1},'d0':{'value':1},'d1':{'value':1},'d2':{'value':1}}}]}}",
     .errors = {"spec.devices[0]: Invalid value: 33: the total number of attributes and capacities must not exceed 32"}},
    {.name = "requestPolicy needs allowMultipleAllocations",
     .patch = "{'spec':{'devices':[{'name':'d','capacity':{'mem':{'value':'8Gi','requestPolicy':{'default':'1Gi',"
              "'validValues':['1Gi']}}}}]}}",
     .errors = {"spec.devices[0].capacity[mem].requestPolicy: Forbidden: allowMultipleAllocations must be true"}},
    {.name = "capacity key",
     .patch = "{'spec':{'devices':[{'name':'d','capacity':{'1mem':{'value':'8Gi'}}}]}}",
     .errors = {"spec.devices[0].capacity: Invalid value: \"1mem\": " MSG_C_IDENTIFIER}},
    {.name = "taints",
     .patch = "{'spec':{'devices':[{'name':'d','taints':[{'key':'dra.example.com/unhealthy','value':'yes',"
              "'effect':'NoSchedule'},{'key':'','effect':''},{'key':'k','value':'-v','effect':'Evict'}]}]}}",
     .errors = {"spec.devices[0].taints[1].key: Invalid value: \"\": name part must be non-empty",
                "spec.devices[0].taints[1].key: Invalid value: \"\": " MSG_LABEL_NAME_PART,
                "spec.devices[0].taints[1].effect: Required value",
                "spec.devices[0].taints[2].value: Invalid value: \"-v\": " MSG_LABEL_VALUE,
                "spec.devices[0].taints[2].effect: Unsupported value: \"Evict\": supported values: \"NoExecute\", "
                "\"NoSchedule\", \"None\""}},
    {.name = "too many taints",
     .patch = "{'spec':{'devices':[{'name':'d','taints':[{'key':'a','effect':'None'},{'key':'a','effect':'None'},"
              "{'key':'a','effect':'None'},{'key':'a','effect':'None'},{'key':'a','effect':'None'},{'key':'a','effect':'None'},"
              "{'key':'a','effect':'None'},{'key':'a','effect':'None'},{'key':'a','effect':'None'},{'key':'a','effect':'None'},"
              "{'key':'a','effect':'None'},{'key':'a','effect':'None'},{'key':'a','effect':'None'},{'key':'a','effect':'None'},"
              "{'key':'a','effect':'None'},{'key':'a','effect':'None'},{'key':'','effect':'None'}]}]}}",
     .errors = {"spec.devices[0].taints: Too many: 17: must have at most 16 items"}},
    {.name = "consumesCounters",
     .patch = "{'spec':{'devices':[{'name':'d','consumesCounters':[{'counterSet':'','counters':{}},{'counterSet':'cs',"
              "'counters':{'M':{'value':'1'}}},{'counterSet':'cs','counters':{'m':{'value':'1'}}}]},"
              "{'name':'e','consumesCounters':[{'counterSet':'a','counters':{'m':{'value':'1'}}},"
              "{'counterSet':'a','counters':{'m':{'value':'1'}}}]}]}}",
     .errors = {"spec.devices[0].consumesCounters: Too many: 3: must have at most 2 items",
                "spec.devices[1].consumesCounters[1]: Duplicate value: \"a\""}},
    {.name = "consumesCounters entries",
     .patch = "{'spec':{'devices':[{'name':'d','consumesCounters':[{'counterSet':'','counters':{}},{'counterSet':'Cs',"
              "'counters':{'M':{'value':'1'}}}]}]}}",
     .errors = {"spec.devices[0].consumesCounters[0].counterSet: Required value",
                "spec.devices[0].consumesCounters[0].counters: Required value",
                "spec.devices[0].consumesCounters[1].counterSet: Invalid value: \"Cs\": " MSG_LABEL,
                "spec.devices[0].consumesCounters[1].counters: Invalid value: \"M\": " MSG_LABEL}},
    {.name = "per-device node selection valid",
     .patch = "{'spec':{'nodeName':null,'perDeviceNodeSelection':true,'devices':[{'name':'a','nodeName':'n1'},"
              "{'name':'b','allNodes':true},{'name':'c','nodeSelector':{'nodeSelectorTerms':[{'matchExpressions':"
              "[{'key':'k','operator':'Exists'}]},{'matchExpressions':[{'key':'l','operator':'Exists'}]}]}}]}}"},
    {.name = "per-device node selection rules",
     .patch = "{'spec':{'nodeName':null,'perDeviceNodeSelection':true,'devices':[{'name':'a'},{'name':'b',"
              "'nodeName':''},{'name':'c','nodeName':'n','allNodes':true},{'name':'e','allNodes':false},"
              "{'name':'f','nodeSelector':{'nodeSelectorTerms':[]}}]}}",
     .errors = {"spec.devices[0]: Required value: " DEV_ONE_OF,
                "spec.devices[1].nodeName: Invalid value: \"\": must not be empty",
                "spec.devices[1]: Required value: " DEV_ONE_OF,
                "spec.devices[2]: Invalid value: \"{`nodeName`, `allNodes`}\": " DEV_ONE_OF,
                "spec.devices[3].allNodes: Invalid value: false: must be either unset or set to true",
                "spec.devices[3]: Required value: " DEV_ONE_OF,
                "spec.devices[4].nodeSelector.nodeSelectorTerms: Required value: must have at least one node selector term"}},
    {.name = "per-device node fields without perDeviceNodeSelection",
     .patch = "{'spec':{'devices':[{'name':'a','nodeName':'n'}]}}",
     .errors = {"spec.devices[0]: Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be set if "
                "`perDeviceNodeSelection` is set to true in the ResourceSlice spec"}},
    {.name = "binding conditions valid",
     .patch = "{'spec':{'devices':[{'name':'a','bindsToNode':true,'bindingConditions':['dra.example.com/ready'],"
              "'bindingFailureConditions':['dra.example.com/failed']}]}}"},
    {.name = "binding conditions rules",
     .patch = "{'spec':{'devices':[{'name':'a','bindingConditions':['a','-b','a'],'bindingFailureConditions':"
              "['a','c','c']},{'name':'b','bindingFailureConditions':['x']},{'name':'c','bindingConditions':['x']},"
              "{'name':'d','bindingConditions':['a','b','c','d','e'],'bindingFailureConditions':['f']}]}}",
     .errors = {"spec.devices[0].bindingConditions[1]: Invalid value: \"-b\": " MSG_LABEL_NAME_PART,
                "spec.devices[0].bindingConditions[2]: Duplicate value: \"a\"",
                "spec.devices[0].bindingFailureConditions[0]: Invalid value: \"a\": bindingFailureConditions must "
                "not overlap with bindingConditions",
                "spec.devices[0].bindingFailureConditions[2]: Duplicate value: \"c\"",
                "spec.devices[1].bindingConditions: Invalid value: null: bindingConditions are required to use "
                "bindingFailureConditions",
                "spec.devices[2].bindingFailureConditions: Invalid value: null: bindingFailureConditions are "
                "required to use bindingConditions",
                "spec.devices[3].bindingConditions: Too many: 5: must have at most 4 items"}},
    {.name = "nodeAllocatableResources valid",
     .patch = "{'spec':{'devices':[{'name':'a','capacity':{'cores':{'value':'8'}},'nodeAllocatableResources':{"
              "'cpu':{'mapping':{'capacityKey':'cores','capacityMultiplier':'1'}},'memory':{'overhead':{'perPod':'10Mi'}}}}]}}"},
    {.name = "nodeAllocatableResources rules",
     .patch = "{'spec':{'devices':[{'name':'a','capacity':{'cores':{'value':'8'}},'nodeAllocatableResources':{"
              "'cpu':{'mapping':{'capacityKey':'cards'}},'example.com/gpu':{},'hugepages-2Mi':{'mapping':{"
              "'capacityKey':'','capacityMultiplier':'0','deviceMultiplier':'-1'}},'memory':{'mapping':{'capacityMultiplier':'1'},"
              "'overhead':{}},'pods':{'overhead':{'perPod':'-1','perContainer':'1'}}}}]}}",
     .errors = {"spec.devices[0].nodeAllocatableResources[cpu].mapping.capacityKey: Not found: \"cards\"",
                "spec.devices[0].nodeAllocatableResources[cpu].mapping.capacityMultiplier: Required value: "
                "capacityMultiplier is required when capacityKey is set",
                "spec.devices[0].nodeAllocatableResources[example.com/gpu]: Invalid value: \"example.com/gpu\": must "
                "be a node allocatable resource name",
                "spec.devices[0].nodeAllocatableResources[example.com/gpu]: Required value: at least one of mapping "
                "or overhead must be set",
                "spec.devices[0].nodeAllocatableResources[hugepages-2Mi].mapping.capacityKey: Invalid value: \"\": "
                "capacityKey must not be an empty string",
                "spec.devices[0].nodeAllocatableResources[hugepages-2Mi].mapping.capacityMultiplier: Invalid value: "
                "\"0\": must be positive",
                "spec.devices[0].nodeAllocatableResources[hugepages-2Mi].mapping.deviceMultiplier: Invalid value: "
                "\"-1\": must be positive",
                "spec.devices[0].nodeAllocatableResources[memory].mapping.capacityKey: Required value: capacityKey "
                "is required when capacityMultiplier is set",
                "spec.devices[0].nodeAllocatableResources[memory].overhead: Invalid value: \"\": at least one of "
                "perPod or perContainer must be set",
                "spec.devices[0].nodeAllocatableResources[pods]: Invalid value: \"pods\": must be a node allocatable "
                "resource name",
                "spec.devices[0].nodeAllocatableResources[pods].overhead.perPod: Invalid value: \"-1\": must be "
                "non-negative"}},
};

/* requestPolicy cases share one multi-allocatable device with capacity 8Gi (or 10). */
#define POLICY(cap, policy)                                                                                   \
  "{'spec':{'devices':[{'name':'d','allowMultipleAllocations':true,'capacity':{'mem':{'value':'" cap "',"    \
  "'requestPolicy':" policy "}}}]}}"
#define RP "spec.devices[0].capacity[mem].requestPolicy"

static const validate_case policy_cases[] = {
    {.name = "validValues valid", .patch = POLICY("8Gi", "{'default':'2Gi','validValues':['1Gi','2Gi','8Gi']}")},
    {.name = "validRange valid", .patch = POLICY("8Gi", "{'default':'2Gi','validRange':{'min':'1Gi','max':'8Gi','step':'1Gi'}}")},
    {.name = "validRange fractional valid", .patch = POLICY("10", "{'default':'1500m','validRange':{'min':'500m','step':'500m'}}")},
    {.name = "no policy values", .patch = POLICY("8Gi", "{'default':'1Gi'}")},
    {.name = "both policies",
     .patch = POLICY("8Gi", "{'default':'1Gi','validValues':['1Gi'],'validRange':{'min':'1Gi'}}"),
     .errors = {RP ": Forbidden: exactly one policy can be specified, cannot specify \"validValues\" and \"validRange\" at the same time"}},
    {.name = "validValues without default",
     .patch = POLICY("8Gi", "{'validValues':['1Gi']}"),
     .errors = {RP ".default: Required value: required when validValues is defined"}},
    {.name = "validValues rules",
     .patch = POLICY("8Gi", "{'default':'3Gi','validValues':['2Gi','1Gi','16Gi','1Gi']}"),
     .errors = {RP ".validValues[1]: Invalid value: \"1Gi\": values must be sorted in ascending order",
                RP ".validValues[3]: Invalid value: \"1Gi\": values must be sorted in ascending order",
                RP ".validValues[2]: Invalid value: \"16Gi\": option is larger than capacity value: 8Gi",
                RP ".validValues[3]: Duplicate value: \"1073741824\"",
                RP ".validValues: Invalid value: \"3Gi\": default value is not valid according to the requestPolicy"}},
    {.name = "too many validValues",
     .patch = POLICY("8Gi", "{'default':'1','validValues':['1','2','3','4','5','6','7','8','9','10','11']}"),
     .errors = {RP ".validValues: Too many: 11: must have at most 10 items",
                RP ".validValues: Invalid value: \"1\": default value is not valid according to the requestPolicy"}},
    {.name = "validRange without default",
     .patch = POLICY("8Gi", "{'validRange':{'min':'1Gi'}}"),
     .errors = {RP ".default: Required value: required when validRange is defined"}},
    {.name = "validRange without min",
     .patch = POLICY("8Gi", "{'default':'1Gi','validRange':{'max':'2Gi'}}"),
     .errors = {RP ".validRange.min: Required value: required when validRange is defined"}},
    {.name = "validRange bounds",
     .patch = POLICY("8Gi", "{'default':'1Gi','validRange':{'min':'16Gi','max':'12Gi'}}"),
     .errors = {RP ".validRange.min: Invalid value: \"16Gi\": min is larger than capacity value: 8Gi",
                RP ".validRange.default: Invalid value: \"1Gi\": default is less than min: 16Gi",
                RP ".validRange.max: Invalid value: \"16Gi\": min is larger than max: 12Gi",
                RP ".validRange.max: Invalid value: \"12Gi\": max is larger than capacity value: 8Gi"}},
    {.name = "validRange default above max",
     .patch = POLICY("8Gi", "{'default':'4Gi','validRange':{'min':'1Gi','max':'2Gi'}}"),
     .errors = {RP ".validRange.default: Invalid value: \"4Gi\": default is more than max: 2Gi"}},
    {.name = "validRange step not positive",
     .patch = POLICY("8Gi", "{'default':'1Gi','validRange':{'min':'1Gi','step':'0'}}"),
     .errors = {RP ".validRange.step: Invalid value: \"0\": must be greater than zero"}},
    {.name = "validRange step too large and not a multiple",
     .patch = POLICY("10", "{'default':'3','validRange':{'min':'2','max':'9','step':'9'}}"),
     .errors = {RP ".validRange.step: Invalid value: \"9\": one step 11 is larger than capacity value: 10",
                RP ".validRange.step: Invalid value: \"3\": value is not a multiple of a given step (9) from (2)",
                RP ".validRange.step: Invalid value: \"9\": value is not a multiple of a given step (9) from (2)"}},
    {.name = "validRange fractional not a multiple",
     .patch = POLICY("10", "{'default':'1200m','validRange':{'min':'500m','step':'500m'}}"),
     .errors = {RP ".validRange.step: Invalid value: \"1200m\": value is not a multiple of a given step (500m) from (500m)"}},
    {.name = "validRange below milli precision",
     .patch = POLICY("10", "{'default':'1500u','validRange':{'min':'1m','step':'1500u'}}"),
     .errors = {RP ".validRange.default: Invalid value: \"1500u\": value cannot be represented as a milli value",
                RP ".validRange.step: Invalid value: \"1500u\": value cannot be represented as a milli value"}},
    {.name = "validRange negative in integer mode",
     .patch = POLICY("10", "{'default':'-2','validRange':{'min':'-4','step':'2'}}"),
     .errors = {RP ".validRange.default: Invalid value: \"-2\": must be greater than or equal to 0",
                RP ".validRange.min: Invalid value: \"-4\": must be greater than or equal to 0"}},
    {.name = "validRange above int64 in integer mode",
     .patch = POLICY("20E", "{'default':'10E','validRange':{'min':'10E','step':'1'}}"),
     .errors = {RP ".validRange.default: Invalid value: \"10E\": must not be larger than 9223372036854775807",
                RP ".validRange.min: Invalid value: \"10E\": must not be larger than 9223372036854775807"}},
};

static const validate_case update_cases[] = {
    {.name = "update keeping identity", .op = ADMIT_UPDATE, .old_patch = "{}", .patch = "{'spec':{'pool':{'generation':1}}}"},
    {.name = "update changing pool name, driver and nodeName",
     .op = ADMIT_UPDATE,
     .old_patch = "{}",
     .patch = "{'spec':{'driver':'other.example.com','pool':{'name':'p2'},'nodeName':'node-2'}}",
     .errors = {"spec.pool.name: Invalid value: \"p2\": field is immutable",
                "spec.driver: Invalid value: \"other.example.com\": field is immutable",
                "spec.nodeName: Invalid value: \"node-2\": field is immutable"}},
    {.name = "update removing nodeName",
     .op = ADMIT_UPDATE,
     .old_patch = "{}",
     .patch = "{'spec':{'nodeName':null,'allNodes':true}}",
     .errors = {"spec.nodeName: Invalid value: null: field is immutable"}},
    {.name = "update renaming the slice",
     .op = ADMIT_UPDATE,
     .old_patch = "{}",
     .patch = "{'metadata':{'name':'t'}}",
     .errors = {"metadata.name: Invalid value: \"t\": field is immutable"}},
    {.name = "update validates the new spec",
     .op = ADMIT_UPDATE,
     .old_patch = "{}",
     .patch = "{'spec':{'devices':[{'name':'dev-0'},{'name':'dev-0'}]}}",
     .errors = {"spec.devices[1]: Duplicate value: \"dev-0\""}},
    {.name = "unchanged capacity and taints are not re-validated",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{'devices':[{'name':'d','capacity':{'m':{'value':'1','requestPolicy':{'default':'1'}}},"
                  "'taints':[{'key':'k','effect':'Evict','timeAdded':'2026-01-01T00:00:00Z'}]}]}}",
     .patch = "{'spec':{'devices':[{'name':'x'},{'name':'d','capacity':{'m':{'value':'1','requestPolicy':{'default':'1'}}},"
              "'taints':[{'key':'k','effect':'Evict','timeAdded':'2026-01-01T00:00:00Z'}]}]}}"},
    {.name = "changed capacity and taints are validated",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{'devices':[{'name':'d','capacity':{'m':{'value':'1','requestPolicy':{'default':'1'}}},"
                  "'taints':[{'key':'k','effect':'Evict','timeAdded':'2026-01-01T00:00:00Z'}]}]}}",
     .patch = "{'spec':{'devices':[{'name':'d','capacity':{'m':{'value':'2','requestPolicy':{'default':'1'}}},"
              "'taints':[{'key':'k','effect':'Evict'}]}]}}",
     .errors = {"spec.devices[0].capacity[m].requestPolicy: Forbidden: allowMultipleAllocations must be true",
                "spec.devices[0].taints[0].effect: Unsupported value: \"Evict\": supported values: \"NoExecute\", "
                "\"NoSchedule\", \"None\""}},
};

static const validate_case gate_cases[] = {
    {.name = "taints dropped with DRADeviceTaints off",
     .gates = "DRADeviceTaints=false",
     .patch = "{'spec':{'devices':[{'name':'d','taints':[{'key':'','effect':'Evict'}]}]}}",
     .warnings = {"Warning: ResourceSlice \"s\": spec.devices[0].taints: dropped, feature gate DRADeviceTaints is disabled"}},
    {.name = "taints kept on update when in use",
     .gates = "DRADeviceTaints=false",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{'devices':[{'name':'x','taints':[{'key':'k','effect':'None'}]}]}}",
     .patch = "{'spec':{'devices':[{'name':'d','taints':[{'key':'k','effect':'Evict'}]}]}}",
     .errors = {"spec.devices[0].taints[0].effect: Unsupported value: \"Evict\": supported values: \"NoExecute\", "
                "\"NoSchedule\", \"None\""}},
    {.name = "perDeviceNodeSelection dropped with DRAPartitionableDevices off",
     .gates = "DRAPartitionableDevices=false",
     .patch = "{'spec':{'nodeName':null,'perDeviceNodeSelection':true,'devices':[{'name':'a','allNodes':true,"
              CONSUMES "}]}}",
     .errors = {"spec: Required value: " ONE_OF},
     .warnings = {"Warning: ResourceSlice \"s\": spec.perDeviceNodeSelection: dropped, feature gate DRAPartitionableDevices is disabled",
                  "Warning: ResourceSlice \"s\": spec.devices[0].consumesCounters: dropped, feature gate DRAPartitionableDevices is disabled",
                  "Warning: ResourceSlice \"s\": spec.devices[0].allNodes: dropped, feature gate DRAPartitionableDevices is disabled"}},
    {.name = "partitionable fields kept on update when in use",
     .gates = "DRAPartitionableDevices=false",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{'devices':[{'name':'x'," CONSUMES "}]}}",
     .patch = "{'spec':{'devices':[{'name':'a','allNodes':true}]}}",
     .errors = {"spec.devices[0]: Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be set if "
                "`perDeviceNodeSelection` is set to true in the ResourceSlice spec"}},
    {.name = "binding fields dropped with DRADeviceBindingConditions off",
     .gates = "DRADeviceBindingConditions=false",
     .patch = "{'spec':{'devices':[{'name':'a','bindingFailureConditions':['x']}]}}",
     .warnings = {"Warning: ResourceSlice \"s\": spec.devices[0].bindingFailureConditions: dropped, feature gate DRADeviceBindingConditions is disabled"}},
    {.name = "binding fields dropped with DRAResourceClaimDeviceStatus off",
     .gates = "DRAResourceClaimDeviceStatus=false",
     .patch = "{'spec':{'devices':[{'name':'a','bindsToNode':true,'bindingConditions':['-x']}]}}",
     .warnings = {"Warning: ResourceSlice \"s\": spec.devices[0].bindsToNode: dropped, feature gate DRAResourceClaimDeviceStatus is disabled",
                  "Warning: ResourceSlice \"s\": spec.devices[0].bindingConditions: dropped, feature gate DRAResourceClaimDeviceStatus is disabled"}},
    {.name = "consumable capacity dropped with DRAConsumableCapacity off",
     .gates = "DRAConsumableCapacity=false",
     .patch = POLICY("8Gi", "{'default':'1Gi'}"),
     .warnings = {"Warning: ResourceSlice \"s\": spec.devices[0].allowMultipleAllocations: dropped, feature gate DRAConsumableCapacity is disabled",
                  "Warning: ResourceSlice \"s\": spec.devices[0].capacity[mem].requestPolicy: dropped, feature gate DRAConsumableCapacity is disabled"}},
    {.name = "list attributes dropped with DRAListTypeAttributes off",
     .gates = "DRAListTypeAttributes=false",
     .patch = "{'spec':{'devices':[{'name':'a','attributes':{'a':{'ints':[1]}}}]}}",
     .errors = {"spec.devices[0].attributes[a]: Invalid value: \"\": must specify one of: " ATTR_MEMBERS},
     .warnings = {"Warning: ResourceSlice \"s\": spec.devices[0].attributes[a]: dropped, feature gate DRAListTypeAttributes is disabled"}},
};

/* A slice with n devices, each with the extra JSON fragment (may be ""). */
static char *slice_with_devices(int n, const char *extra) {
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, "{'spec':{'devices':[");
  for (int i = 0; i < n; i++) sb_printf(&sb, "%s{'name':'d%d'%s}", i ? "," : "", i, extra);
  sb_puts(&sb, "]}}");
  return sb_detach(&sb);
}

static void device_limits(void **state) {
  (void)state;
  char *ok128 = slice_with_devices(128, ""), *bad129 = slice_with_devices(129, ""),
       *bad65 = slice_with_devices(65, ",'taints':[{'key':'k','effect':'None'}]"),
       *ok64 = slice_with_devices(64, "," CONSUMES);
  validate_case cases[] = {
      {.name = "128 devices", .patch = ok128},
      {.name = "129 devices", .patch = bad129, .errors = {"spec.devices: Too many: 129: must have at most 128 items"}},
      {.name = "65 tainted devices", .patch = bad65, .errors = {"spec.devices: Too many: 65: must have at most 64 items"}},
      {.name = "64 consuming devices", .patch = ok64},
  };
  run_validate_cases(base, cases, sizeof cases / sizeof cases[0]);
  free(ok128), free(bad129), free(bad65), free(ok64);
}

static void taint_time_added_defaulted(void **state) {
  (void)state;
  admission_ctx ctx = {0};
  gates_default(&ctx.gates);
  ctx.now = "2026-11-30T01:02:03Z";
  api_object *o = decode_or_fail(base, "{'spec':{'devices':[{'name':'d','taints':[{'key':'a','effect':'None'},"
                                       "{'key':'b','effect':'None','timeAdded':'2020-01-01T00:00:00Z'}]}]}}");
  errlist errs = {0};
  assert_true(admit_object(&ctx, ADMIT_CREATE, o, NULL, &errs));
  resource_slice *s = o->typed;
  assert_string_equal(s->spec.devices.items[0].taints.items[0].time_added, "2026-11-30T01:02:03Z");
  assert_string_equal(s->spec.devices.items[0].taints.items[1].time_added, "2020-01-01T00:00:00Z");
  errlist_free(&errs);
  api_object_free(o);
}

#define GROUP(name, cases) failed += run_validate_group(name, base, cases, sizeof cases / sizeof cases[0])

int main(void) {
  int failed = 0;
  GROUP("ResourceSlice spec", spec_cases);
  GROUP("ResourceSlice devices", device_cases);
  GROUP("ResourceSlice requestPolicy", policy_cases);
  GROUP("ResourceSlice update", update_cases);
  GROUP("ResourceSlice feature gates", gate_cases);
  const struct CMUnitTest other[] = {cmocka_unit_test(device_limits), cmocka_unit_test(taint_time_added_defaulted)};
  failed += cmocka_run_group_tests_name("ResourceSlice limits and defaults", other, NULL, NULL);
  return failed;
}
