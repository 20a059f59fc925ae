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
#include "envpool/python/py_env_pool.h"

namespace envpool::mpe2 {

template <typename Scenario>
void Register(pybind11::module_& m, const char* name) {
  envpool::python::RegisterEnv<MpeEnv<Scenario>>(m, name);
}

}  // namespace envpool::mpe2

PYBIND11_MODULE(_mpe2, m) {
  namespace mpe2 = envpool::mpe2;
  mpe2::Register<mpe2::SimpleScenario>(m, "Simple");
  mpe2::Register<mpe2::SimpleAdversaryScenario>(m, "SimpleAdversary");
  mpe2::Register<mpe2::SimpleCryptoScenario>(m, "SimpleCrypto");
  mpe2::Register<mpe2::SimplePushScenario>(m, "SimplePush");
  mpe2::Register<mpe2::SimpleReferenceScenario>(m, "SimpleReference");
  mpe2::Register<mpe2::SimpleSpeakerListenerScenario>(m,
                                                      "SimpleSpeakerListener");
  mpe2::Register<mpe2::SimpleSpreadScenario>(m, "SimpleSpread");
  mpe2::Register<mpe2::SimpleTagScenario>(m, "SimpleTag");
  mpe2::Register<mpe2::SimpleWorldCommScenario>(m, "SimpleWorldComm");
  mpe2::Register<mpe2::SimpleLineScenario>(m, "SimpleLine");
  mpe2::Register<mpe2::SimpleFormationScenario>(m, "SimpleFormation");
  mpe2::Register<mpe2::CollectTreasureScenario>(m, "CollectTreasure");
  // np.exp in simple_tag's and simple_world_comm's boundary penalty, np.arctan2
  // in simple_formation's target angle
  envpool::python::RegisterNumpyParity(m);
}
