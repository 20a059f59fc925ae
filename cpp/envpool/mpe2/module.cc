// The mpe2 scenarios, as the module envpool._mpe2.
#include "envpool/mpe2/mpe_env.h"
#include "envpool/mpe2/scenarios/collect_treasure.h"
#include "envpool/mpe2/scenarios/simple.h"
#include "envpool/mpe2/scenarios/simple_adversary.h"
#include "envpool/mpe2/scenarios/simple_crypto.h"
#include "envpool/mpe2/scenarios/simple_formation.h"
#include "envpool/mpe2/scenarios/simple_line.h"
#include "envpool/mpe2/scenarios/simple_push.h"
#include "envpool/mpe2/scenarios/simple_reference.h"
#include "envpool/mpe2/scenarios/simple_speaker_listener.h"
#include "envpool/mpe2/scenarios/simple_spread.h"
#include "envpool/mpe2/scenarios/simple_tag.h"
#include "envpool/mpe2/scenarios/simple_world_comm.h"
#include "envpool/numpy/py_numpy_parity.h"
#include "envpool/numpy/py_numpy_sort.h"
#include "envpool/python/py_env_pool.h"

namespace {

// Each scenario is one env class of the module.
template <typename Scenario>
using Mpe = envpool::mpe2::MpeEnv<Scenario>;

}  // namespace

PYBIND11_MODULE(_mpe2, m) {
  namespace mpe2 = envpool::mpe2;
  envpool::python::RegisterEnvs<
      Mpe<mpe2::SimpleScenario>, Mpe<mpe2::SimpleAdversaryScenario>,
      Mpe<mpe2::SimpleCryptoScenario>, Mpe<mpe2::SimplePushScenario>,
      Mpe<mpe2::SimpleReferenceScenario>,
      Mpe<mpe2::SimpleSpeakerListenerScenario>, Mpe<mpe2::SimpleSpreadScenario>,
      Mpe<mpe2::SimpleTagScenario>, Mpe<mpe2::SimpleWorldCommScenario>,
      Mpe<mpe2::SimpleLineScenario>, Mpe<mpe2::SimpleFormationScenario>,
      Mpe<mpe2::CollectTreasureScenario>>(
      m, "Simple", "SimpleAdversary", "SimpleCrypto", "SimplePush",
      "SimpleReference", "SimpleSpeakerListener", "SimpleSpread", "SimpleTag",
      "SimpleWorldComm", "SimpleLine", "SimpleFormation", "CollectTreasure");
  // np.exp in simple_tag's and simple_world_comm's boundary penalty, np.arctan2
  // in simple_formation's target angle
  envpool::python::RegisterNumpyParity(m);
  // np.argsort in the nearest neighbours of the partial-observability options
  envpool::python::RegisterNumpyArgsort(m);
}
